import { type FormEvent, useEffect, useState } from 'react';
import { Page } from '../components/Page.tsx';
import { type SsoSessionRow, useSsoSessions } from '../state/identity.ts';
import { DataTable } from '../components/DataTable.tsx';
import './SsoSessionsScreen.css';
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
      status={message}
    >
      <RevokeByIdp />
      <div className="row pager">
        <label className="inline">
          <input type="checkbox" checked={includeInactive} onChange={(event) => void load(event.target.checked)} /> Show revoked and expired
        </label>
        <button type="button" disabled={loading} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <DataTable
        label="SSO sessions"
        className="sessions-table"
        rows={sessions}
        rowKey={(session) => session.session_id}
        empty={`No ${includeInactive ? '' : 'active '}sessions.`}
        columns={[
          { header: 'Session', cell: (session) => <code>{session.session_id}</code> },
          { header: 'IdP session', cell: (session) => <code>{session.idp_session_id}</code> },
          {
            header: 'Subject',
            cell: (session) => (
              <>
                {session.subject}
                {session.email ? <div className="muted">{session.email}</div> : null}
              </>
            ),
          },
          { header: 'Project', cell: (session) => session.project_id },
          { header: 'Expires', cell: (session) => new Date(session.expires_at).toLocaleString() },
          { header: 'Status', cell: (session) => <span className={`badge ${stateOf(session, now)}`}>{stateOf(session, now)}</span> },
          {
            header: 'Actions',
            cell: (session) =>
              stateOf(session, now) === 'active' ? (
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
              ) : null,
          },
        ]}
      />
      <WorkbenchSessions />
    </Page>
  );
};
