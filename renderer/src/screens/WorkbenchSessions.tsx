import { useCallback, useEffect, useState } from 'react';
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
      <table className="sessions-table">
        <caption className="sr-only">Workbench sessions</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Signed in with</th>
            <th scope="col">Subject</th>
            <th scope="col">Tier</th>
            <th scope="col">From</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {sessions.length === 0 ? (
            <tr>
              <td colSpan={7} className="muted">
                No active sessions.
              </td>
            </tr>
          ) : null}
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                <code>{session.id}</code>
              </td>
              <td>{session.amr}</td>
              <td>{session.subject}</td>
              <td>{session.tier}</td>
              <td>{session.origin === null ? <span className="muted">login link</span> : <code>{session.origin}</code>}</td>
              <td>{new Date(session.expires_at).toLocaleString()}</td>
              <td>
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
};
