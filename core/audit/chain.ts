import { hash } from 'node:crypto';
import type { EvidenceRecord } from './types.ts';

/** prev_hash of the first record (seq 1) of every project chain. */
export const GENESIS_HASH = '0'.repeat(64);

/** One-shot hashing: no Hash object per record (measurably cheaper on the ingest path). */
const sha256Hex = (text: string): string => hash('sha256', text, 'hex');

/** JSON string literal; JCS forbids lone surrogates, which JSON.stringify would escape instead. */
const quote = (text: string): string => {
  if (!text.isWellFormed()) throw new TypeError('Lone surrogate is not allowed');
  return JSON.stringify(text);
};

/** The exact, general JCS writer: slower, used when the fast path cannot be trusted. */
const jcsExact = (value: unknown): string => {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed in JSON`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i > 0 ? ',' : '') + (value[i] === undefined ? 'null' : jcsExact(value[i]));
        return `${out}]`;
      }
      const object = value as Record<string, unknown>;
      // Default sort compares UTF-16 code units, exactly the order RFC 8785 prescribes.
      let out = '{';
      for (const key of Object.keys(object).sort()) {
        const item = object[key];
        if (item === undefined) continue;
        out += `${out.length > 1 ? ',' : ''}${quote(key)}:${jcsExact(item)}`;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`A ${typeof value} has no JSON representation`);
  }
};

/** Integer-like keys: JS enumerates them numerically first, so a sorted copy would not keep JCS order. */
const indexLikeKey = /^(0|[1-9]\d*)$/;
const needsExactKey = (key: string): boolean => {
  const first = key.charCodeAt(0);
  return (first >= 48 && first <= 57 && indexLikeKey.test(key)) || key === '__proto__';
};
class NeedsExactPath extends Error {}

/** A copy with object keys in JCS order; checks numbers. Keys it cannot place (`__proto__`, indexes) bail out. */
const sortedCopy = (value: unknown): unknown => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed in JSON`);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const object = value as Record<string, unknown>;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(object).sort()) {
    if (needsExactKey(key)) throw new NeedsExactPath();
    copy[key] = sortedCopy(object[key]);
  }
  return copy;
};

/** True when every object in the tree already has its keys in JCS order (and numbers are finite). */
const alreadyCanonical = (value: unknown): boolean => {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || value === null)
    return typeof value !== 'bigint' && typeof value !== 'function' && typeof value !== 'symbol';
  if (Array.isArray(value)) return value.every(alreadyCanonical);
  let previous = '';
  let first = true;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const item = (value as Record<string, unknown>)[key];
    if ((!first && key <= previous) || needsExactKey(key) || item === undefined || !alreadyCanonical(item)) return false;
    previous = key;
    first = false;
  }
  return true;
};

/** JSON.stringify writes a lone surrogate as an escape; JCS must reject it instead (rare: re-check exactly). */
const surrogateEscape = /\\ud[89a-f]/i;

/**
 * RFC 8785 (JCS) canonical JSON of plain JSON data: object keys sorted by UTF-16 code units, ES number
 * serialisation, JSON string escaping. Throws on what JSON cannot carry (NaN, Infinity, lone surrogates,
 * functions). Fast path: one native JSON.stringify over a key-sorted copy; the `canonicalize` package costs
 * several times more on the ingest hot path. A test checks both agree.
 */
export const jcs = (value: unknown): string => {
  try {
    const text = JSON.stringify(alreadyCanonical(value) ? value : sortedCopy(value));
    if (text !== undefined && !surrogateEscape.test(text) && typeof value !== 'function') return text;
  } catch (error) {
    if (!(error instanceof NeedsExactPath)) throw error;
  }
  return jcsExact(value);
};

/**
 * The record hash of contract A: lowercase hex SHA-256 over the UTF-8 bytes of
 * `prev_hash + JCS(record without hash)`. Any verifier with a JCS library can recompute it.
 */
export const computeRecordHash = (record: Omit<EvidenceRecord, 'hash'>): string => {
  const { seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash } = record;
  return sha256Hex(prev_hash + jcs({ seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash }));
};

/** Printable ASCII but `"` and `\\`: the characters JSON writes as themselves. */
const unescaped = /^[ !#-[\]-~]*$/;

/**
 * True for a string JSON writes as itself between quotes: printable ASCII without `"` or `\\` (ids, ISO times,
 * hex). A regular expression: V8 compiles it to native code, ~40% less CPU than a loop over the characters,
 * and every record of an ingest checks six of these (a bundle build's pass four).
 */
export const needsNoEscape = (text: unknown): text is string => typeof text === 'string' && unescaped.test(text);

/**
 * A JSON string literal, without the native call for the strings the store writes (ids, ISO times, hex), which
 * need no escape: JSON.stringify per field cost more than the SHA-256 itself on the ingest path. Anything else (a
 * hostile row or bundle, a non-string) gets JSON's answer.
 */
export const quoteField = (text: string): string => (needsNoEscape(text) ? `"${text}"` : JSON.stringify(text));

type HashedFields = Omit<EvidenceRecord, 'hash' | 'payload'>;

/**
 * canonicalHashInput when every envelope string field needs no escape (needsNoEscape), which the caller has
 * checked: the quotes are part of the one template. One join: a flat string at once, where a template made a
 * rope of 17 pieces that hashing then flattened, and a quoted copy per field was a third of the garbage a chained
 * append made (docs/decisions.md, "Ingest, fourth pass").
 */
export const plainHashInput = (record: HashedFields, payloadJcs: string): string =>
  [
    record.prev_hash,
    '{"payload":',
    payloadJcs,
    ',"prev_hash":"',
    record.prev_hash,
    '","project_id":"',
    record.project_id,
    '","record_id":"',
    record.record_id,
    '","recorded_at":"',
    record.recorded_at,
    '","schema_key":"',
    record.schema_key,
    '","seq":',
    record.seq,
    ',"timestamp":"',
    record.timestamp,
    '"}',
  ].join('');

/**
 * The text a record hash covers, prev_hash followed by JCS(record without hash), when `payloadJcs` is already
 * JCS(payload) and every other field is a string that is well-formed UTF-16 (the store's id patterns, ISO times
 * and hex guarantee it): the canonical envelope written directly, keys in JCS order. A bundle's record line is
 * `{"hash":…,` + this text after its `{` (core/cec/segment-pass.ts).
 */
export const canonicalHashInput = (record: HashedFields, payloadJcs: string): string => {
  const { prev_hash, project_id, record_id, recorded_at, schema_key, seq, timestamp } = record;
  if (
    needsNoEscape(prev_hash) &&
    needsNoEscape(project_id) &&
    needsNoEscape(record_id) &&
    needsNoEscape(recorded_at) &&
    needsNoEscape(schema_key) &&
    needsNoEscape(timestamp)
  ) {
    return plainHashInput(record, payloadJcs);
  }
  return (
    `${prev_hash}{"payload":${payloadJcs},"prev_hash":${quoteField(prev_hash)}` +
    `,"project_id":${quoteField(project_id)},"record_id":${quoteField(record_id)}` +
    `,"recorded_at":${quoteField(recorded_at)},"schema_key":${quoteField(schema_key)}` +
    `,"seq":${seq},"timestamp":${quoteField(timestamp)}}`
  );
};

/** SHA-256 of a canonicalHashInput, in hex: the record hash. */
export const hashOfCanonicalInput = (text: string): string => sha256Hex(text);

/** hashOfCanonicalInput over the input already encoded as UTF-8 (a bundle's record line, core/cec/range-pass.ts). */
export const hashOfCanonicalBytes = (bytes: Uint8Array): string => hash('sha256', bytes, 'hex');

/**
 * Same hash as computeRecordHash under canonicalHashInput's conditions. A verifier that finds a mismatch
 * re-checks with computeRecordHash.
 */
export const hashWithCanonicalPayload = (record: HashedFields, payloadJcs: string): string =>
  sha256Hex(canonicalHashInput(record, payloadJcs));
