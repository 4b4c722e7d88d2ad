import { useCallback, useEffect, useState } from 'react';
import { DataTable } from '../components/DataTable.tsx';
import { callOp, messageOf } from '../state/call.ts';
import type { OpOutput } from '../transport/index.ts';

type SessionRow = OpOutput<'sessions.list'>[number];

/**
 * Every workbench session (API key exchange, key sign-in, one-time link, SAML, OIDC): who, how, until when.
 * Revoking one ends its token and cookie at once; rotating the session key ends all of them (this one too).
 */
export const WorkbenchSessions = () => {
  const [sessions, setSessions] = useState<readonly SessionRow[]>([]);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      const message = await work();
      setSessions(await callOp('sessions.list', {}));
      setStatus(message);
    } catch (error) {
      setStatus(messageOf(error));
    } finally {
      setBusy(false);
    }
  }, []);
  useEffect(() => void run(async () => ''), [run]);
  const rotate = (): void => {
    if (!window.confirm('Rotate the session key? Every session ends, yours included; everyone signs in again.')) return;
    void run(async () => {
      const { ended } = await callOp('sessions.rotateKey', {});
      return `Session key rotated; ${ended} session(s) ended`;
    });
  };
  return (
    <section aria-labelledby="workbench-sessions">
      <h2 id="workbench-sessions">Workbench sessions</h2>
      <div role="status" className="status-line">
        {status}
      </div>
      <div className="row pager">
        <button type="button" disabled={busy} onClick={() => void run(async () => '')}>
          Refresh sessions
        </button>
        <button type="button" className="danger" disabled={busy} onClick={rotate}>
          Rotate session key (sign everyone out)
        </button>
      </div>
      <DataTable
        label="Workbench sessions"
        className="sessions-table"
        rows={sessions}
        rowKey={(session) => session.id}
        empty="No active sessions."
        columns={[
          { header: 'Session', cell: (session) => <code>{session.id}</code> },
          { header: 'Signed in with', cell: (session) => session.amr },
          { header: 'Subject', cell: (session) => session.subject },
          { header: 'Tier', cell: (session) => session.tier },
          {
            header: 'From',
            cell: (session) => (session.origin === null ? <span className="muted">login link</span> : <code>{session.origin}</code>),
          },
          { header: 'Expires', cell: (session) => new Date(session.expires_at).toLocaleString() },
          {
            header: 'Actions',
            cell: (session) => (
              <button
                type="button"
                className="danger"
                disabled={busy}
                aria-label={`End session ${session.id}`}
                onClick={() =>
                  void run(async () =>
                    (await callOp('sessions.revoke', { id: session.id })) ? `Ended ${session.id}` : `${session.id} was not live`,
                  )
                }
              >
                End
              </button>
            ),
          },
        ]}
      />
    </section>
  );
};
