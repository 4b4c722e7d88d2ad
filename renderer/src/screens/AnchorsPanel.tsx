import { useEffect } from 'react';
import { DataTable } from '../components/DataTable.tsx';
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
        <DataTable
          label="Chain anchors"
          rows={anchors.slice(-10).reverse()}
          rowKey={(a) => String(a.seq)}
          columns={[
            { header: 'Seq', cell: (a) => a.seq },
            { header: 'Head hash', className: 'mono', cell: (a) => <span title={a.head_hash}>{a.head_hash.slice(0, 16)}…</span> },
            { header: 'Kind', cell: (a) => kindLabel[a.kind] },
            { header: 'Created (UTC)', cell: (a) => a.created_at },
          ]}
        />
      ) : null}
    </section>
  );
};
