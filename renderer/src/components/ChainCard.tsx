import type { ChainCheck, Overview } from '../state/overview.ts';

type Anchoring = Overview['anchoring'];

const minutes = (seconds: number): string => (seconds < 60 ? `${seconds} s` : `${Math.round(seconds / 60)} min`);

/** The anchoring line: the latest anchor and how many records (and for how long) wait after it. */
const anchoringText = (anchoring: Anchoring): string => {
  if (anchoring === null) return 'No records to anchor';
  const oldest = `the oldest waiting ${minutes(anchoring.lag_seconds)}`;
  if (anchoring.anchored_seq === null) return `Never anchored: ${anchoring.lag_records} record(s) waiting, ${oldest}`;
  const kind = anchoring.kind === 'rfc3161' ? 'TSA token' : 'Ed25519 checkpoint';
  const latest = `Seq ${anchoring.anchored_seq} (${kind}, ${anchoring.anchored_at?.replace('T', ' ').slice(0, 16)} UTC)`;
  return anchoring.lag_records === 0
    ? `${latest}; every record is anchored`
    : `${latest}; ${anchoring.lag_records} record(s) after it, ${oldest}`;
};

/** The chain head, the result of re-verifying it, and the anchoring lag (or that nothing is anchored yet). */
export const ChainCard = ({
  chain,
  check,
  anchoring,
}: {
  chain: Overview['chain'];
  check: { result: ChainCheck | null; error: string | null } | null;
  anchoring: Anchoring;
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
        <dd>{anchoringText(anchoring)}</dd>
      </dl>
    )}
  </div>
);
