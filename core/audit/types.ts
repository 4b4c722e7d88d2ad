/** The six kinds of evidence the store accepts; one NDJSON folder per key in a bundle (spec 2.4). */
export const schemaKeys = ['score_records', 'bias_reports', 'prri_records', 'drift_events', 'pii_detections', 'gate_evaluations'] as const;
export type SchemaKey = (typeof schemaKeys)[number];

/** One stored, chained evidence record (DESIGN.md "Evidence chain"). */
export type EvidenceRecord = {
  /** Position in the project's chain, from 1. */
  seq: number;
  record_id: string;
  project_id: string;
  schema_key: SchemaKey;
  /** Event time, ISO 8601 UTC with milliseconds (`2026-01-02T03:04:05.000Z`). */
  timestamp: string;
  /** When the store accepted the record, ISO 8601 UTC. */
  recorded_at: string;
  payload: Record<string, unknown>;
  /** Hash of the previous record of the same project; GENESIS_HASH for seq 1. */
  prev_hash: string;
  /** Lowercase hex SHA-256 of prev_hash + JCS(record without hash). */
  hash: string;
};

/** What a producer sends; the store fills seq, recorded_at, hashes, and defaults timestamp and record_id. */
export type EvidenceInput = {
  project_id: string;
  schema_key: SchemaKey;
  /** ISO 8601 with an offset; stored normalised to UTC. Defaults to the time of recording. */
  timestamp?: string;
  /** Producer-chosen id, unique per project; a ULID when absent. */
  record_id?: string;
  payload: Record<string, unknown>;
};

export const isSchemaKey = (value: unknown): value is SchemaKey =>
  typeof value === 'string' && (schemaKeys as readonly string[]).includes(value);
