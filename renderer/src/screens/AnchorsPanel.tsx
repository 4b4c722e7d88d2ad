import { useEffect } from 'react';
import { useAnchors } from '../state/anchors.ts';

const kindLabel = { rfc3161: 'RFC 3161 token (TSA)', ed25519: 'Ed25519 checkpoint (producer only)' } as const;

/** A project's chain anchors and an "Anchor now" button; shown under the Evidence filters for a known project. */
export const AnchorsPanel = ({ projectId }: { projectId: string | null }) => {
  const { anchors, anchoring, notice, error, load, anchorNow } = useAnchors();
  useEffect(() => {
    if (projectId !== null) void load(projectId);
  }, [projectId, load]);
  if (projectId === null) return null;
  const latest = anchors.at(-1);
  return (
    <section className="card stack" aria-labelledby="anchors-heading">
      <div className="row">
        <h2 id="anchors-heading">Chain anchors of {projectId}</h2>
        <button type="button" className="primary" disabled={anchoring} onClick={() => void anchorNow(projectId)}>
          {anchoring ? 'Anchoring…' : 'Anchor now'}
        </button>
      </div>
      <p className="muted">
        An anchor timestamps the chain head so a later rewrite of earlier records is detectable. {anchors.length} anchor(s)
        {latest ? `, latest at seq ${latest.seq} (${latest.created_at})` : ''}.
      </p>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? (
        <p role="alert" className="alert">
          {error}
        </p>
      ) : null}
      {anchors.length > 0 ? (
        <table>
          <caption className="sr-only">Chain anchors</caption>
          <thead>
            <tr>
              <th scope="col">Seq</th>
              <th scope="col">Head hash</th>
              <th scope="col">Kind</th>
              <th scope="col">Created (UTC)</th>
            </tr>
          </thead>
          <tbody>
            {anchors
              .slice(-10)
              .reverse()
              .map((a) => (
                <tr key={a.seq}>
                  <td>{a.seq}</td>
                  <td className="mono" title={a.head_hash}>
                    {a.head_hash.slice(0, 16)}…
                  </td>
                  <td>{kindLabel[a.kind]}</td>
                  <td>{a.created_at}</td>
                </tr>
              ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
};
