import type { ChainCheck, Overview } from '../state/overview.ts';

/** How far the chain head is ahead of its last external anchor; supplied once anchoring exists. */
export type AnchorLag = {
  readonly anchored_seq: number;
  readonly anchored_at: string;
  readonly lag_records: number;
  readonly lag_seconds: number;
};

/** The chain head, the result of re-verifying it, and the anchoring lag (or that nothing is anchored yet). */
export const ChainCard = ({
  chain,
  check,
  anchorLag,
}: {
  chain: Overview['chain'];
  check: { result: ChainCheck | null; error: string | null } | null;
  anchorLag?: AnchorLag | null;
}) => (
  <div className="card">
    <h2>Hash chain</h2>
    {chain === null ? (
      <p className="muted">No records yet, so no chain.</p>
    ) : (
      <dl className="facts">
        <dt>Head</dt>
        <dd>
          seq {chain.head_seq} · <code title={chain.head_hash}>{chain.head_hash.slice(0, 16)}…</code>
        </dd>
        <dt>Last append</dt>
        <dd>
          <time dateTime={chain.updated_at}>{chain.updated_at.replace('T', ' ').slice(0, 16)} UTC</time>
        </dd>
        <dt>Verification</dt>
        <dd role="status">
          {check === null || (check.result === null && check.error === null) ? (
            'Re-hashing every record…'
          ) : check.error !== null ? (
            <span className="badge fail">could not verify: {check.error}</span>
          ) : check.result?.valid ? (
            <span className="badge valid">✓ intact ({check.result.checked} records)</span>
          ) : (
            <span className="badge fail">✗ broken at seq {check.result?.first_broken_seq ?? '?'}</span>
          )}
        </dd>
        <dt>Anchoring</dt>
        <dd>
          {anchorLag == null
            ? 'No anchors yet'
            : `${anchorLag.lag_records} record(s) since the anchor at seq ${anchorLag.anchored_seq} (${Math.round(anchorLag.lag_seconds / 60)} min)`}
        </dd>
      </dl>
    )}
  </div>
);
