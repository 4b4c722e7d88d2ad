import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { EvidenceRecord } from './types.ts';

/** prev_hash of the first record (seq 1) of every project chain. */
export const GENESIS_HASH = '0'.repeat(64);

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** RFC 8785 canonical JSON; throws on values JSON cannot carry (NaN, Infinity, lone surrogates). */
export const jcs = (value: unknown): string => {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('Value has no JSON representation');
  return text;
};

/**
 * The record hash of contract A: lowercase hex SHA-256 over the UTF-8 bytes of
 * `prev_hash + JCS(record without hash)`. Any verifier with a JCS library can recompute it.
 */
export const computeRecordHash = (record: Omit<EvidenceRecord, 'hash'>): string => {
  const { seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash } = record;
  return sha256Hex(
    prev_hash + jcs({ seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash }),
  );
};

/**
 * Same hash as computeRecordHash when `payloadJcs` is already JCS(payload) and every other field is ASCII
 * (the store guarantees both): writes the canonical envelope directly instead of re-sorting keys, which
 * matters on the ingest hot path. Keys appear in JCS (UTF-16 code unit) order.
 */
export const hashWithCanonicalPayload = (
  record: Omit<EvidenceRecord, 'hash' | 'payload'>,
  payloadJcs: string,
): string =>
  sha256Hex(
    `${record.prev_hash}{"payload":${payloadJcs},"prev_hash":${JSON.stringify(record.prev_hash)}` +
      `,"project_id":${JSON.stringify(record.project_id)},"record_id":${JSON.stringify(record.record_id)}` +
      `,"recorded_at":${JSON.stringify(record.recorded_at)},"schema_key":${JSON.stringify(record.schema_key)}` +
      `,"seq":${record.seq},"timestamp":${JSON.stringify(record.timestamp)}}`,
  );
