/**
 * The check of one NDJSON record line of a bundle: strict envelope (exactly the hashed fields plus `hash`),
 * nesting limit, and the record hash recomputed over RFC 8785 JSON. Lines in the builder's canonical layout take
 * the byte-level fast path (canonical-line.ts); any other line is parsed and canonicalised here, exactly.
 */
import { isUtf8 } from 'node:buffer';
import { computeRecordHash, hashWithCanonicalPayload } from '../audit/chain.ts';
import { type EvidenceRecord, isSchemaKey } from '../audit/types.ts';
import { CanonicalLineChecker } from './canonical-line.ts';
import { hasDuplicateKeys } from './verify-json.ts';

/** What the chain check needs from a record line, whichever path read it. */
export type CheckedRecord = {
  readonly seq: number;
  readonly schema_key: string;
  readonly project_id: string;
  readonly timestamp: string;
  readonly recorded_at: string;
  readonly prev_hash: string;
  readonly hash: string;
  /** `ok` when the recomputed hash equals `hash`; reported in seq order by the chain check. */
  readonly content: 'ok' | 'hash-mismatch' | 'too-deep';
};

/** Exactly the hashed fields plus `hash`: a record line with any other field (say `approved_by`) is invalid. */
const envelopeKeys = ['seq', 'record_id', 'project_id', 'schema_key', 'timestamp', 'recorded_at', 'payload', 'prev_hash', 'hash'];

/** Shape check of one parsed line; cheaper than a schema at a million records. */
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
 * payload's keys are already sorted JSON.stringify gives the JCS text; otherwise the generic path runs.
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

/**
 * The general path: JSON.parse, the strict envelope, the nesting limit, exact JCS. A duplicate key is refused:
 * JSON.parse keeps the last value, other parsers the first or an error, so the line has no one reading.
 */
export const checkParsedLine = (text: string, maxDepth: number): CheckedRecord | 'not-json' | 'malformed' => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'not-json';
  }
  if (hasDuplicateKeys(text, parsed)) return 'not-json';
  const record = asRecord(parsed);
  if (record === null) return 'malformed';
  const shape = payloadShape(record.payload, maxDepth);
  const content = shape === 'too-deep' ? 'too-deep' : hashMatches(record, shape) ? 'ok' : 'hash-mismatch';
  return { ...record, content };
};

/** Checks record lines of one verification, fast path first (one instance: it reuses its buffers). */
export class RecordLineChecker {
  readonly #fast: CanonicalLineChecker;

  constructor(readonly maxDepth: number) {
    this.#fast = new CanonicalLineChecker(maxDepth);
  }

  /** The record in `line[start, end)` (UTF-8), or why it is not one. */
  check(line: Buffer, start: number, end: number): CheckedRecord | 'not-json' | 'malformed' {
    const fast = this.#fast.check(line, start, end);
    if (fast !== null) return fast;
    // Decoding would turn invalid UTF-8 into U+FFFD, which another reader does not see: not JSON.
    if (!isUtf8(line.subarray(start, end))) return 'not-json';
    return checkParsedLine(line.toString('utf8', start, end), this.maxDepth);
  }
}
