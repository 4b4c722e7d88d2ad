import { type FormEvent, useState } from 'react';
import { useSession } from '../state/session.ts';

/**
 * Browser sign-in. SSO buttons appear when configured; the admin API key form is always there (break-glass), so
 * a broken SSO configuration can never lock the owner out.
 */
export const LoginScreen = () => {
  const { session, error, loginWithKey } = useSession();
  const [apiKey, setApiKey] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void loginWithKey(apiKey.trim());
  };
  return (
    <main className="login">
      <section className="card" aria-labelledby="login-title">
        <h1 id="login-title">Sign in to the Compliance Workbench</h1>
        {session?.sso.oidc ? (
          <a className="button primary" href="/oidc/login">
            Sign in with OpenID Connect
          </a>
        ) : null}
        {session?.sso.saml ? (
          <a className="button primary" href="/saml/login">
            Sign in with SAML
          </a>
        ) : null}
        {session?.sso.required && session.sso.required !== 'off' ? (
          <p className="muted">
            This server requires single sign-on. Administrators can still sign in with an admin API key (break-glass).
          </p>
        ) : null}
        <form onSubmit={submit} className="stack">
          <label htmlFor="login-key">API key</label>
          <input id="login-key" type="password" autoComplete="off" value={apiKey} onChange={(e) => setApiKey(e.target.value)} />
          <button type="submit" className="primary" disabled={apiKey.trim() === ''}>
            Sign in with API key
          </button>
        </form>
        {error ? (
          <p role="alert" className="alert">
            {error}
          </p>
        ) : null}
        <p className="muted">
          Use the one-time link printed by <code>svc serve</code>, or create a key with <code>svc keys create --tier admin</code>.
        </p>
      </section>
    </main>
  );
};
