import { useEffect, useState } from 'react';
import { LoginScreen } from './screens/LoginScreen.tsx';
import { screens } from './screens.ts';
import { isDesktop, useSession } from './state/session.ts';

/** The screen id of the hash (`#/frameworks?project=p` → `frameworks`); the Overview is the landing page. */
const currentRoute = (): string => window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'overview';

export const App = () => {
  const { status, session, load, logout } = useSession();
  const [route, setRoute] = useState(currentRoute());
  useEffect(() => {
    void load();
    const onHash = (): void => setRoute(currentRoute());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [load]);

  if (status === 'loading') return <p role="status">Loading…</p>;
  if (!session?.authenticated) return <LoginScreen />;
  const active = screens.find((screen) => screen.id === route) ?? screens[0];
  const groups = [...new Set(screens.map((screen) => screen.group))];
  const Screen = active?.component;
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">Compliance Workbench</div>
        {groups.map((group) => (
          <div key={group} className="nav-group">
            <div className="nav-group-title">{group}</div>
            <ul>
              {screens
                .filter((screen) => screen.group === group)
                .map((screen) => (
                  <li key={screen.id}>
                    <a href={`#/${screen.id}`} aria-current={screen.id === active?.id ? 'page' : undefined}>
                      {screen.title}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
        <div className="sidebar-footer">
          <span title="Signed in as">{session.subject}</span>
          {!isDesktop ? (
            <button type="button" className="link" onClick={() => void logout()}>
              Sign out
            </button>
          ) : null}
        </div>
      </nav>
      <main className="content">{Screen ? <Screen /> : null}</main>
    </div>
  );
};
