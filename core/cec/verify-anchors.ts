import type { JWK } from 'jose';
import { type Anchor, anchorImprint, checkpointPayloadSchema } from '../audit/anchors/statement.ts';
import { type AnchorsFile, anchorsFileSchema } from './anchors-file.ts';
import { type ChainLink, ChainLinker } from './chain-link.ts';
import type { ChainProof } from './chain-proof.ts';
import { jwkThumbprint, verifyJws } from './ed25519.ts';
import { verifyTimestamp } from './timestamp/index.ts';
import type { AnchorReport, AnchorSummary } from './types.ts';
import type { Checks } from './verify-checks.ts';
import { parseSignedJson } from './verify-json.ts';

export type AnchorTrust = {
  /** Ed25519 keys the auditor trusts; a checkpoint is never checked against a key carried in the bundle. */
  readonly trustedKeys: readonly JWK[];
  readonly trustedCertsPem?: string[];
};

type Checked = AnchorSummary & { readonly timeMs: number | null };

/** Verifies one anchor's token over its own statement; says nothing yet about whether the bundle's chain agrees. */
export const checkAnchorToken = async (anchor: Anchor, trust: AnchorTrust): Promise<Checked> => {
  const base = { seq: anchor.seq, kind: anchor.kind, head_hash: anchor.head_hash, created_at: anchor.created_at };
  const token = Buffer.from(anchor.token, 'base64');
  if (anchor.kind === 'rfc3161') {
    const stamp = await verifyTimestamp(token, anchorImprint(anchor.project_id, anchor.seq, anchor.head_hash), {
      ...(trust.trustedCertsPem === undefined ? {} : { trustedCertsPem: trust.trustedCertsPem }),
    });
    const errors = stamp.kind === 'stub' ? ['a stub is not an anchor token'] : stamp.errors;
    const valid = stamp.kind === 'rfc3161' && stamp.valid;
    const time = stamp.genTime ?? null;
    return { ...base, time, tsa: stamp.tsa ?? null, token_valid: valid, errors, timeMs: valid && time !== null ? Date.parse(time) : null };
  }
  const jws = token.toString('ascii');
  // The header's kid only routes to one of the verifier's keys; the signature decides.
  const kid = checkpointKid(jws);
  const key = (await trustedKids(trust)).get(kid ?? '');
  if (key === undefined) {
    const note = `checkpoint signature not checked: signed by key ${kid ?? '(none named)'}, not one of the trusted public keys`;
    return { ...base, time: null, tsa: null, token_valid: null, errors: [], note, timeMs: null };
  }
  const payload = await verifyJws(jws, key);
  if (payload === null)
    return {
      ...base,
      time: null,
      tsa: null,
      token_valid: false,
      errors: ['checkpoint signature does not verify with the trusted key it names'],
      timeMs: null,
    };
  const claim = checkpointPayloadSchema.safeParse(parseJsonOrNull(Buffer.from(payload).toString('utf8')));
  const matches =
    claim.success &&
    claim.data.project_id === anchor.project_id &&
    claim.data.seq === anchor.seq &&
    claim.data.head_hash === anchor.head_hash;
  if (!claim.success || !matches)
    return { ...base, time: null, tsa: null, token_valid: false, errors: ['checkpoint payload does not state this head'], timeMs: null };
  const time = claim.data.anchored_at;
  return { ...base, time, tsa: null, token_valid: true, errors: [], timeMs: Number.isNaN(Date.parse(time)) ? null : Date.parse(time) };
};

const parseJsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The kid a compact JWS's protected header names (unverified), or null. */
const checkpointKid = (jws: string): string | null => {
  const header = parseJsonOrNull(Buffer.from(jws.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown } | null;
  return typeof header?.kid === 'string' ? header.kid : null;
};

/** The verifier's trusted keys by RFC 7638 thumbprint. */
const trustedKids = async (trust: AnchorTrust): Promise<Map<string, JWK>> =>
  new Map(await Promise.all(trust.trustedKeys.map(async (key) => [await jwkThumbprint(key), key] as const)));

const percentile = (sorted: Float64Array, p: number): number | null =>
  sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);

/**
 * Checks a bundle's anchors against its chain as the chain verifier walks it (`onLink`, in seq order), then
 * `finish` checks the anchors at the segment's edges and reports the anchoring lag of each full record:
 * time of the first verified anchor at or after its seq minus its recorded_at.
 */
export class AnchorVerifier {
  readonly #errors: string[] = [];
  readonly #checked: Checked[];
  readonly #inside = new Map<number, Checked>();
  readonly #matched = new Set<number>();
  readonly #timed: Checked[];
  readonly #lags: number[] = [];
  readonly #file: AnchorsFile;
  #next = 0;
  #records = 0;
  #unanchored = 0;
  #firstUnanchored: number | null = null;
  /** recorded_at repeats across a batch of records: parse each distinct value once. */
  #lastRecordedAt = '';
  #lastRecordedMs = Number.NaN;

  private constructor(file: AnchorsFile, checked: Checked[]) {
    this.#file = file;
    this.#checked = checked;
    this.#timed = checked.filter((anchor) => anchor.timeMs !== null).sort((a, b) => a.seq - b.seq);
    for (const anchor of checked) this.#inside.set(anchor.seq, anchor);
  }

  /** null when the bundle carries no anchors.json (built before anchoring existed); a string when it is unreadable. */
  static async prepare(bytes: Buffer | undefined, projectId: string | null, trust: AnchorTrust): Promise<AnchorVerifier | string | null> {
    if (bytes === undefined) return null;
    const file = parseSignedJson<AnchorsFile>(bytes, 'anchors.json', anchorsFileSchema, false);
    if (typeof file === 'string') return file;
    const checked = await Promise.all(file.anchors.map((anchor) => checkAnchorToken(anchor, trust)));
    const verifier = new AnchorVerifier(file, checked);
    const seqs = new Set<number>();
    for (const [i, anchor] of file.anchors.entries()) {
      if (projectId !== null && (anchor.project_id !== projectId || file.project_id !== projectId))
        verifier.#fail(`anchor at seq ${anchor.seq} belongs to another project`);
      if (seqs.has(anchor.seq)) verifier.#fail(`two anchors at seq ${anchor.seq}`);
      seqs.add(anchor.seq);
      for (const error of checked[i]?.errors ?? []) verifier.#fail(`anchor at seq ${anchor.seq}: ${error}`);
    }
    return verifier;
  }

  #fail(message: string): void {
    if (this.#errors.length < 20) this.#errors.push(`anchors: ${message}`);
  }

  /** The bundle's hash-only links from the segment head to the first anchor after it (checked in `finish`). */
  get bridge(): readonly ChainLink[] {
    return this.#file.bridge;
  }

  /** One link of the segment as the chain verifier accepted it; `recordedAt` null for a hash-only witness. */
  onLink(seq: number, hash: string, recordedAt: string | null): void {
    const anchor = this.#inside.get(seq);
    if (anchor !== undefined) {
      this.#matched.add(seq);
      if (anchor.head_hash !== hash)
        this.#fail(
          `anchor at seq ${seq} states head ${anchor.head_hash}, but the bundle's chain has ${hash} there: history differs from what was anchored`,
        );
    }
    if (recordedAt === null) return;
    this.#records += 1;
    while (this.#next < this.#timed.length && (this.#timed[this.#next] as Checked).seq < seq) this.#next += 1;
    const cover = this.#timed[this.#next];
    if (recordedAt !== this.#lastRecordedAt) {
      this.#lastRecordedAt = recordedAt;
      this.#lastRecordedMs = Date.parse(recordedAt);
    }
    const recorded = this.#lastRecordedMs;
    if (cover === undefined || cover.timeMs === null || Number.isNaN(recorded)) {
      this.#unanchored += 1;
      this.#firstUnanchored ??= seq;
    } else this.#lags.push(Math.max(0, (cover.timeMs - recorded) / 1000));
  }

  /** Edge anchors (before and after the segment), then the report. */
  finish(segment: ChainProof['segment']): { errors: string[]; report: AnchorReport } {
    for (const anchor of this.#checked) {
      if (this.#matched.has(anchor.seq)) continue;
      if (segment === null) this.#fail(`anchor at seq ${anchor.seq} but the bundle holds no chain segment`);
      else if (anchor.seq === segment.first_seq - 1) {
        if (anchor.head_hash !== segment.anchor_prev_hash)
          this.#fail(`anchor at seq ${anchor.seq} does not match the hash the segment starts from: history differs from what was anchored`);
      } else if (anchor.seq > segment.last_seq) this.#checkAfter(anchor, segment);
      else this.#fail(`anchor at seq ${anchor.seq} is not covered by the bundle's chain segment`);
    }
    if (this.#file.bridge.length > 0 && !this.#checked.some((anchor) => segment !== null && anchor.seq > segment.last_seq))
      this.#fail('a bridge is present but no anchor after the segment');
    const sorted = Float64Array.from(this.#lags).sort();
    return {
      errors: this.#errors,
      report: {
        anchors: this.#checked.map(({ timeMs: _ms, ...summary }) => summary),
        lag: {
          records: this.#records,
          anchored: sorted.length,
          unanchored: this.#unanchored,
          first_unanchored_seq: this.#firstUnanchored,
          max_seconds: sorted.length === 0 ? null : (sorted[sorted.length - 1] as number),
          p50_seconds: percentile(sorted, 0.5),
          p95_seconds: percentile(sorted, 0.95),
        },
      },
    };
  }

  #checkAfter(anchor: Checked, segment: NonNullable<ChainProof['segment']>): void {
    const later = this.#checked.filter((other) => other.seq > segment.last_seq);
    if (later[0]?.seq !== anchor.seq) {
      this.#fail(`anchor at seq ${anchor.seq} lies beyond the first anchor after the segment`);
      return;
    }
    const linker = new ChainLinker();
    linker.push({ seq: segment.last_seq, prev_hash: '', hash: segment.head_hash });
    for (const link of this.#file.bridge) linker.push(link, `bridge seq ${link.seq}`);
    for (const error of linker.errors) this.#fail(error.replace(/^chain: /, 'bridge: '));
    if (linker.lastSeq !== anchor.seq || linker.lastHash !== anchor.head_hash)
      this.#fail(`the bridge from the segment head does not reach the anchor at seq ${anchor.seq}: history differs from what was anchored`);
  }
}

/** Starts the `anchors` check from anchors.json's bytes (undefined: the bundle carries none); null when there is nothing to walk. */
export const startAnchorCheck = async (
  checks: Checks,
  bytes: Buffer | undefined,
  projectId: string,
  trust: AnchorTrust,
): Promise<AnchorVerifier | null> => {
  const verifier = await AnchorVerifier.prepare(bytes, projectId, trust);
  if (verifier === null) checks.note('anchors', 'skipped', 'not checked: the bundle carries no anchors.json');
  if (typeof verifier === 'string') checks.fail('anchors', verifier);
  return verifier instanceof AnchorVerifier ? verifier : null;
};

/** Ends the `anchors` check once the chain has been walked; returns the report for the result. */
export const finishAnchorCheck = (checks: Checks, verifier: AnchorVerifier | null, segment: ChainProof['segment']): AnchorReport | null => {
  if (verifier === null) return null;
  const { errors, report } = verifier.finish(segment);
  for (const error of errors) checks.fail('anchors', error);
  const verified = report.anchors.filter((anchor) => anchor.token_valid === true).length;
  checks.note(
    'anchors',
    'pass',
    report.anchors.length === 0
      ? 'no anchor covers this chain segment'
      : `${report.anchors.length} anchor(s) match the re-derived chain, ${verified} token(s) verified; ${report.lag.unanchored} of ${report.lag.records} records with no verified anchor after them`,
  );
  return report;
};
