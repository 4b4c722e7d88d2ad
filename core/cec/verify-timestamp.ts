import { verifyTimestamp } from './timestamp/index.ts';
import type { TimestampReport } from './types.ts';
import type { Checks } from './verify-checks.ts';

export type TimestampInput = {
  readonly checks: Checks;
  readonly token: Buffer | undefined;
  readonly digest: Buffer | null;
  /** The kind the signed attestation names; the file must be of that kind (no stub swapped for a token). */
  readonly signedKind: 'rfc3161' | 'stub' | null;
  readonly trustAnchorsPem: readonly string[];
};

/** Checks the timestamp entry against the manifest digest, the signed kind and the verifier's TSA roots. */
export const checkTimestamp = async (input: TimestampInput): Promise<TimestampReport | null> => {
  const { checks } = input;
  if (input.token === undefined || input.digest === null) {
    checks.fail('timestamp', 'rfc3161_timestamp.tsr or manifest.json is missing');
    return null;
  }
  const stamp = await verifyTimestamp(input.token, input.digest, { trustedCertsPem: [...input.trustAnchorsPem] });
  for (const error of stamp.errors) checks.fail('timestamp', `timestamp: ${error}`);
  if (input.signedKind !== null && input.signedKind !== stamp.kind)
    checks.fail('timestamp', `timestamp: the signed attestation names a ${input.signedKind} timestamp, the bundle holds a ${stamp.kind}`);
  const report: TimestampReport = {
    kind: stamp.kind,
    gen_time: stamp.genTime ?? null,
    tsa: stamp.tsa ?? null,
    serial: stamp.serial ?? null,
    policy: stamp.policy ?? null,
    trusted: stamp.trusted ?? false,
  };
  checks.note(
    'timestamp',
    'pass',
    stamp.kind === 'stub'
      ? `stub timestamp (no TSA was configured): attests no time; builder clock ${report.gen_time ?? 'unknown'}`
      : `RFC 3161 token from ${report.tsa ?? 'unknown TSA'} at ${report.gen_time ?? '?'} (serial ${report.serial ?? '?'}, policy ${report.policy ?? '?'}), chained to a trusted TSA root`,
  );
  return report;
};
