import { DataTable } from '../components/DataTable.tsx';
import type { Verification } from '../state/bundles.ts';

type Report = NonNullable<Verification['anchors']>;

const duration = (seconds: number | null): string => {
  if (seconds === null) return 'n/a';
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
};

const tokenStatus = (anchor: Report['anchors'][number]): string =>
  anchor.token_valid === true ? 'verified' : anchor.token_valid === false ? 'INVALID' : (anchor.note ?? 'not checked');

/** The anchors a verified bundle carries and how long its records stood unanchored. */
export const VerifyAnchors = ({ report }: { report: Verification['anchors'] }) => {
  if (report === null) return <p className="muted">This bundle carries no chain anchors (built before anchoring existed).</p>;
  const { lag } = report;
  return (
    <section className="stack" aria-labelledby="verify-anchors-heading">
      <h3 id="verify-anchors-heading">Chain anchors</h3>
      {report.anchors.length === 0 ? (
        <p className="muted">No anchor covers this bundle's chain segment: nothing proves when these records existed.</p>
      ) : (
        <DataTable
          label="Anchors carried by the bundle"
          rows={report.anchors}
          rowKey={(a) => String(a.seq)}
          columns={[
            { header: 'Seq', cell: (a) => a.seq },
            { header: 'Kind', cell: (a) => (a.kind === 'rfc3161' ? 'RFC 3161 token' : 'Ed25519 checkpoint') },
            { header: 'Time', cell: (a) => a.time ?? 'unknown' },
            { header: 'TSA', cell: (a) => a.tsa ?? (a.kind === 'ed25519' ? "producer's own clock" : 'unknown') },
            {
              header: 'Token',
              cell: (a) => (
                <>
                  <span className={`badge ${a.token_valid === true ? 'valid' : a.token_valid === false ? 'invalid' : ''}`}>
                    {tokenStatus(a)}
                  </span>
                  {a.errors.length > 0 ? <span className="verify-errors"> {a.errors.join('; ')}</span> : null}
                </>
              ),
            },
          ]}
        />
      )}
      <p role="note">
        Anchoring lag over {lag.records} records: max {duration(lag.max_seconds)}, median {duration(lag.p50_seconds)}, 95th percentile{' '}
        {duration(lag.p95_seconds)}.{' '}
        {lag.unanchored > 0
          ? `${lag.unanchored} record(s) from seq ${lag.first_unanchored_seq} have no verified anchor after them.`
          : 'Every record has a verified anchor after it.'}
      </p>
    </section>
  );
};
