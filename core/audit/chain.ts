import { createHash } from 'node:crypto';
import type { EvidenceRecord } from './types.ts';

/** prev_hash of the first record (seq 1) of every project chain. */
export const GENESIS_HASH = '0'.repeat(64);

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const loneSurrogate = /\p{Surrogate}/u;

/**
 * RFC 8785 (JCS) canonical JSON of plain JSON data: object keys sorted by UTF-16 code units, ES number
 * serialisation, JSON string escaping. Throws on what JSON cannot carry (NaN, Infinity, lone surrogates,
 * functions). Written here because the `canonicalize` package costs about 4x more on the ingest hot path;
 * a test checks both agree.
 */
export const jcs = (value: unknown): string => {
  switch (typeof value) {
    case 'string':
      if (loneSurrogate.test(value)) throw new TypeError('Lone surrogate is not allowed');
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed in JSON`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : jcs(item))).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${jcs(k)}:${jcs(v)}`).join(',')}}`;
    }
    default:
      throw new TypeError(`A ${typeof value} has no JSON representation`);
  }
};

/**
 * The record hash of contract A: lowercase hex SHA-256 over the UTF-8 bytes of
 * `prev_hash + JCS(record without hash)`. Any verifier with a JCS library can recompute it.
 */
export const computeRecordHash = (record: Omit<EvidenceRecord, 'hash'>): string => {
  const { seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash } = record;
  return sha256Hex(prev_hash + jcs({ seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash }));
};

/**
 * Same hash as computeRecordHash when `payloadJcs` is already JCS(payload) and every other field is ASCII
 * (the store guarantees both): writes the canonical envelope directly instead of re-sorting keys, which
 * matters on the ingest hot path. Keys appear in JCS (UTF-16 code unit) order.
 */
export const hashWithCanonicalPayload = (record: Omit<EvidenceRecord, 'hash' | 'payload'>, payloadJcs: string): string =>
  sha256Hex(
    `${record.prev_hash}{"payload":${payloadJcs},"prev_hash":${JSON.stringify(record.prev_hash)}` +
      `,"project_id":${JSON.stringify(record.project_id)},"record_id":${JSON.stringify(record.record_id)}` +
      `,"recorded_at":${JSON.stringify(record.recorded_at)},"schema_key":${JSON.stringify(record.schema_key)}` +
      `,"seq":${record.seq},"timestamp":${JSON.stringify(record.timestamp)}}`,
  );
