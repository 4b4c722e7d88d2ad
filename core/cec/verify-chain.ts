import { computeRecordHash, hashWithCanonicalPayload } from '../audit/chain.ts';
import { type EvidenceRecord, isSchemaKey, type SchemaKey } from '../audit/types.ts';
import { ChainLinker } from './chain-link.ts';
import type { ChainProof } from './chain-proof.ts';
import { inDateRange } from './dates.ts';
import type { DateRange } from './types.ts';
import { LineReader } from './zip-reader.ts';
import type { StrictZip, ZipEntry } from './zip-strict.ts';

/** Exactly the hashed fields plus `hash`: a record line with any other field (say `approved_by`) is invalid. */
const envelopeKeys = ['seq', 'record_id', 'project_id', 'schema_key', 'timestamp', 'recorded_at', 'payload', 'prev_hash', 'hash'];

/** Shape check of one NDJSON line; cheaper than a schema at a million records. */
const asRecord = (value: unknown): EvidenceRecord | null => {
  const r = value as Partial<EvidenceRecord> | null;
  if (r === null || typeof r !== 'object' || Array.isArray(r)) return null;
  const keys = Object.keys(r);
  const ok =
    keys.length === envelopeKeys.length &&
    envelopeKeys.every((key) => Object.hasOwn(r, key)) &&
    Number.isSafeInteger(r.seq) &&
    (r.seq ?? 0) > 0 &&
    typeof r.record_id === 'string' &&
    typeof r.project_id === 'string' &&
    isSchemaKey(r.schema_key) &&
    typeof r.timestamp === 'string' &&
    typeof r.recorded_at === 'string' &&
    typeof r.payload === 'object' &&
    r.payload !== null &&
    !Array.isArray(r.payload) &&
    // No regex for the hashes: `hash` must equal a recomputed hex digest and `prev_hash` the previous hash.
    typeof r.prev_hash === 'string' &&
    r.prev_hash.length === 64 &&
    typeof r.hash === 'string' &&
    r.hash.length === 64;
  return ok ? (r as EvidenceRecord) : null;
};

class TooDeep extends Error {}

/** True when keys are in JCS order at every level; throws TooDeep past `depthLeft` (recursion is bounded by it). */
const sortedWithin = (value: unknown, depthLeft: number): boolean => {
  if (value === null || typeof value !== 'object') return true;
  if (depthLeft === 0) throw new TooDeep();
  let sorted = true;
  if (Array.isArray(value)) {
    for (const item of value) if (!sortedWithin(item, depthLeft - 1)) sorted = false;
    return sorted;
  }
  let previous: string | null = null;
  for (const key in value) {
    if (previous !== null && previous >= key) sorted = false;
    previous = key;
    if (!sortedWithin((value as Record<string, unknown>)[key], depthLeft - 1)) sorted = false;
  }
  return sorted;
};

/**
 * Whether the payload's keys are already in JCS order (so JSON.stringify is its JCS form), or it nests deeper
 * than `maxDepth`. Recursion stops at `maxDepth` frames, so a hostile record cannot overflow the stack.
 */
const payloadShape = (payload: unknown, maxDepth: number): 'sorted' | 'unsorted' | 'too-deep' => {
  try {
    return sortedWithin(payload, maxDepth) ? 'sorted' : 'unsorted';
  } catch (error) {
    if (error instanceof TooDeep) return 'too-deep';
    throw error;
  }
};

/**
 * The record hash of contract A. JCS formats numbers and strings exactly as JSON.stringify does, so when the
 * payload's keys are already sorted (always true for bundles we write) JSON.stringify gives the JCS text and
 * the expensive generic canonicalization is skipped; otherwise the generic path runs.
 */
const recordHash = (record: EvidenceRecord, shape: 'sorted' | 'unsorted'): string => {
  const { hash: _hash, ...rest } = record;
  return shape === 'sorted' ? hashWithCanonicalPayload(rest, JSON.stringify(record.payload)) : computeRecordHash(rest);
};

/** False for a wrong hash, and for content JCS cannot carry (a lone surrogate): a failure, never a crash. */
const hashMatches = (record: EvidenceRecord, shape: 'sorted' | 'unsorted'): boolean => {
  try {
    return recordHash(record, shape) === record.hash;
  } catch {
    return false;
  }
};

type Source = { key: SchemaKey; reader: LineReader; head: EvidenceRecord | null; lastSeq: number; count: number };

export type ChainCheckInput = {
  readonly zip: StrictZip;
  readonly folders: ReadonlyMap<SchemaKey, ZipEntry>;
  readonly proof: ChainProof;
  readonly maxLineBytes: number;
  readonly maxDepth: number;
  /** From the manifest, when it parsed: records must belong to the project and the range. */
  readonly scope: { projectId: string; range: DateRange } | null;
  /** Sees every link in seq order (anchor checks); recordedAt is null for a witness. */
  readonly onLink?: (seq: number, hash: string, recordedAt: string | null) => void;
};

export type ChainCheckOutput = {
  readonly errors: string[];
  readonly counts: Map<SchemaKey, number>;
  /** SHA-256 and size of each NDJSON folder entry as read. */
  readonly digests: Map<string, { sha256: string; size: number }>;
};

/**
 * Re-verifies the chain from the bundle alone: reads the six NDJSON folders side by side (each in seq order)
 * and merges them with the proof's witnesses by seq, re-hashing every full record and re-linking every step.
 * Memory is one line per folder plus the witness list, whatever the record count.
 */
export const verifyChain = async (input: ChainCheckInput): Promise<ChainCheckOutput> => {
  const linker = new ChainLinker();
  const sources: Source[] = [...input.folders].map(([key, item]) => ({
    key,
    reader: new LineReader(input.zip, item, input.maxLineBytes),
    head: null,
    lastSeq: 0,
    count: 0,
  }));
  const advance = async (source: Source): Promise<void> => {
    for (;;) {
      const line = source.reader.nextBuffered() ?? (await source.reader.next());
      if (line === null) {
        source.head = null;
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        linker.fail(`chain: ${source.key} has a line that is not JSON`);
        continue;
      }
      const record = asRecord(parsed);
      if (record === null) {
        linker.fail(`chain: ${source.key} has a malformed record (not exactly the record fields plus hash)`);
        continue;
      }
      source.count += 1;
      if (record.seq <= source.lastSeq) linker.fail(`chain: ${source.key} is not in seq order at seq ${record.seq}`);
      source.lastSeq = record.seq;
      source.head = record;
      return;
    }
  };
  await Promise.all(sources.map(advance));
  const witnesses = input.proof.witnesses;
  let w = 0;
  for (;;) {
    let best: Source | null = null;
    for (const source of sources) {
      if (source.head !== null && (best === null || source.head.seq < (best.head as EvidenceRecord).seq)) best = source;
    }
    const witness = witnesses[w];
    if (best === null && witness === undefined) break;
    const record = best?.head ?? null;
    if (witness !== undefined && (record === null || witness.seq <= record.seq)) {
      if (record !== null && witness.seq === record.seq) linker.fail(`chain: seq ${record.seq} is both a record and a witness`);
      linker.push(witness, `witness seq ${witness.seq}`);
      input.onLink?.(witness.seq, witness.hash, null);
      w += 1;
      if (w < witnesses.length && (witnesses[w] as { seq: number }).seq <= witness.seq)
        linker.fail('chain: witnesses are not in seq order');
      continue;
    }
    if (best === null || record === null) break;
    const label = `record seq ${record.seq} (${best.key})`;
    const shape = payloadShape(record.payload, input.maxDepth);
    if (shape === 'too-deep') linker.fail(`chain: ${label} payload is nested deeper than ${input.maxDepth} levels`);
    else if (!hashMatches(record, shape)) linker.fail(`chain: ${label} hash does not match its content`);
    if (record.schema_key !== best.key) linker.fail(`chain: ${label} is in the wrong folder`);
    if (input.scope !== null) {
      if (record.project_id !== input.scope.projectId) linker.fail(`chain: ${label} belongs to another project`);
      if (!inDateRange(record.timestamp, input.scope.range)) linker.fail(`chain: ${label} is outside the date range`);
    }
    linker.push(record, label);
    input.onLink?.(record.seq, record.hash, record.recorded_at);
    await advance(best);
  }
  checkSegment(linker, input.proof);
  const counts = new Map(sources.map((source) => [source.key, source.count] as const));
  const total = sources.reduce((sum, source) => sum + source.count, 0);
  if (total !== input.proof.record_count) linker.fail(`chain: proof counts ${input.proof.record_count} records, folders hold ${total}`);
  if (witnesses.length !== input.proof.witness_count) linker.fail('chain: witness_count does not match the witness list');
  if (!input.proof.verification.valid) linker.fail('chain: the builder reported that the stored chain failed verification');
  const digests = new Map(
    sources.map(
      (source) => [source.reader.reader.entry.name, { sha256: source.reader.reader.sha256(), size: source.reader.reader.size }] as const,
    ),
  );
  return { errors: linker.errors, counts, digests };
};

const checkSegment = (linker: ChainLinker, proof: ChainProof): void => {
  const segment = proof.segment;
  if (segment === null) {
    if (linker.count > 0) linker.fail('chain: proof has no segment but the bundle holds records or witnesses');
    return;
  }
  if (linker.count !== segment.last_seq - segment.first_seq + 1) {
    linker.fail(`chain: segment ${segment.first_seq}..${segment.last_seq} is not fully covered (${linker.count} links)`);
  }
  if (linker.firstPrevHash !== segment.anchor_prev_hash) linker.fail('chain: first link does not start at the anchor hash');
  if (linker.lastHash !== segment.head_hash) linker.fail('chain: last link does not end at the head hash');
  if (linker.lastSeq !== segment.last_seq) linker.fail(`chain: segment ends at seq ${linker.lastSeq}, proof says ${segment.last_seq}`);
};
