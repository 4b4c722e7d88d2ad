import type { z } from 'zod';
import type { evidenceInputSchema } from './input.ts';

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

/**
 * What a producer sends (the type of `evidenceInputSchema`); the store fills seq, recorded_at, hashes, and
 * defaults timestamp (ISO 8601 with an offset, stored as UTC) and record_id (a ULID).
 */
export type EvidenceInput = z.input<typeof evidenceInputSchema>;

export const isSchemaKey = (value: unknown): value is SchemaKey =>
  typeof value === 'string' && (schemaKeys as readonly string[]).includes(value);
