import { type FormEvent, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { type SsoSessionRow, useSsoSessions } from '../state/identity.ts';
import './UsersScreen.css';
import { WorkbenchSessions } from './WorkbenchSessions.tsx';

const stateOf = (session: SsoSessionRow, now: number): 'active' | 'revoked' | 'expired' =>
  session.revoked ? 'revoked' : Date.parse(session.expires_at) <= now ? 'expired' : 'active';

const RevokeByIdp = () => {
  const { revokeIdpSession, loading } = useSsoSessions();
  const [idp, setIdp] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    void revokeIdpSession(idp.trim());
    setIdp('');
  };
  return (
    <form onSubmit={submit} className="toolbar" aria-label="Revoke by IdP session">
      <label className="grow">
        IdP session id
        <input value={idp} onChange={(event) => setIdp(event.target.value)} required maxLength={512} spellCheck={false} />
      </label>
      <button type="submit" className="danger" disabled={loading || idp.trim() === ''}>
        Revoke IdP session
      </button>
    </form>
  );
};

/** Workbench sessions delegated from IdP sessions (SAML, OIDC, sso_delegate_session); an IdP logout revokes them all. */
export const SsoSessionsScreen = () => {
  const { sessions, includeInactive, loading, error, message, load, revokeSession, revokeIdpSession } = useSsoSessions();
  useEffect(() => void load(), [load]);
  const now = Date.now();
  return (
    <Page
      title="SSO Sessions"
      description="Sessions delegated from an identity provider's session. They last 8 hours; revoking the IdP session ends every session derived from it."
      error={error}
    >
      <div role="status" className="status-line">
        {message}
      </div>
      <RevokeByIdp />
      <div className="row pager">
        <label className="inline">
          <input type="checkbox" checked={includeInactive} onChange={(event) => void load(event.target.checked)} /> Show revoked and expired
        </label>
        <button type="button" disabled={loading} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <table className="sessions-table">
        <caption className="sr-only">SSO sessions</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">IdP session</th>
            <th scope="col">Subject</th>
            <th scope="col">Project</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {sessions.length === 0 ? (
            <tr>
              <td colSpan={7} className="muted">
                No {includeInactive ? '' : 'active '}sessions.
              </td>
            </tr>
          ) : null}
          {sessions.map((session) => {
            const state = stateOf(session, now);
            return (
              <tr key={session.session_id}>
                <td>
                  <code>{session.session_id}</code>
                </td>
                <td>
                  <code>{session.idp_session_id}</code>
                </td>
                <td>
                  {session.subject}
                  {session.email ? <div className="muted">{session.email}</div> : null}
                </td>
                <td>{session.project_id}</td>
                <td>{new Date(session.expires_at).toLocaleString()}</td>
                <td>
                  <span className={`badge ${state}`}>{state}</span>
                </td>
                <td>
                  {state === 'active' ? (
                    <div className="row">
                      <button
                        type="button"
                        className="danger"
                        disabled={loading}
                        onClick={() => void revokeSession(session.session_id)}
                        aria-label={`Revoke ${session.session_id}`}
                      >
                        Revoke
                      </button>
                      <button
                        type="button"
                        disabled={loading}
                        onClick={() => void revokeIdpSession(session.idp_session_id)}
                        aria-label={`Revoke all of IdP session ${session.idp_session_id}`}
                      >
                        Revoke IdP session
                      </button>
                    </div>
                  ) : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <WorkbenchSessions />
    </Page>
  );
};
