import { z } from 'zod';
import type { App } from '../app.ts';
import type { Queryable, TransactionOptions } from '../store/database.ts';
import { sqliteDatabase } from '../store/sqlite-database.ts';
import { noteAppended } from './anchors/scheduler.ts';
import { appendToChain, type Inputs } from './append.ts';
import type { ChainTarget } from './chain-writer.ts';
import { type EvidenceRow, timeFilter } from './evidence-rows.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceRecord, SchemaKey } from './types.ts';

export const rowToRecord = (row: EvidenceRow): EvidenceRecord => ({
  ...row,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

/** A stored row, checked on the way in (PostgreSQL and SQLite give the same shape). */
export const evidenceRow: z.ZodType<EvidenceRow> = z.object({
  seq: z.number(),
  record_id: z.string(),
  project_id: z.string(),
  schema_key: z.enum(schemaKeys),
  timestamp: z.string(),
  recorded_at: z.string(),
  payload: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
});

/**
 * The app's chain target: on SQLite, the connection `database` wraps, for the synchronous per-row INSERTs of the
 * desktop's ingest hot path (chain-writer.ts).
 */
export const chainTarget = (app: App): ChainTarget => ({
  database: app.database,
  sqlite: app.database.dialect === 'sqlite' && app.database === sqliteDatabase(app.db) ? app.db : null,
});

/** Appends `inputs` to their projects' chains on the app's storage (see appendToChain), then tells the anchor scheduler. */
export const appendEvidence = async (app: App, inputs: Inputs, commit: TransactionOptions = {}): Promise<EvidenceRecord[]> => {
  const { records, projectIds } = await appendToChain(chainTarget(app), inputs, app.now(), commit);
  noteAppended(app, projectIds);
  return records;
};

/** Records per schema key (all six keys present, zero when none) in the inclusive UTC date range. */
export const countEvidence = async (
  db: Queryable,
  q: { projectId: string; from?: string; to?: string },
): Promise<Record<SchemaKey, number>> => {
  const time = timeFilter(q.from, q.to);
  const counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  const sql = `SELECT schema_key, count(*) AS n FROM audit_records WHERE project_id = ? AND ${time.sql} GROUP BY schema_key`;
  const rows = await db.all(z.object({ schema_key: z.string(), n: z.number() }), sql, [q.projectId, ...time.params]);
  for (const row of rows) {
    if (row.schema_key in counts) counts[row.schema_key as SchemaKey] = row.n;
  }
  return counts;
};
