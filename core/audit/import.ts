import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { encodeTime, ulid } from 'ulid';
import { z } from 'zod';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Database, Dialect, Queryable, SqlValue } from '../store/database.ts';
import { noteAppended } from './anchors/scheduler.ts';
import { writeChain } from './chain-writer.ts';
import { chainTarget } from './store.ts';
import { formatIssues, prepareInput } from './input.ts';
import type { PreparedInput } from './input.ts';
import { ndjsonLines } from './ndjson.ts';
import { schemaKeys } from './types.ts';
import { boundLimit } from '../store/sql-text.ts';

export type LineError = { line: number; message: string };

export type ImportResult = {
  imported: number;
  lines: number;
  projects: { project_id: string; first_seq: number; last_seq: number; head_hash: string }[];
};

export type ImportOptions = {
  /** project_id for lines that carry none (CLI `--project`). */
  defaultProjectId?: string;
  /** Total input size in bytes when known (file imports), for progress. */
  totalBytes?: number;
  onProgress?: (done: number, total: number | null, message: string) => void;
  signal?: AbortSignal;
};

const stagingBatch = 2000;
const stagingPage = 5000;
/** Stop reading after this many bad lines: the report is long enough to fix the file. */
const maxReportedErrors = 100;

type StagedRow = PreparedInput & { line: number };

/**
 * Staging, by back end. SQLite: a TEMP table of the app's connection (it shadows the old `main.audit_staging`);
 * SQLite removes it when the process ends, so an import killed mid-way leaves no rows behind. PostgreSQL: the
 * real `audit_staging` table, keyed by import id. A per-transaction TEMP table cannot serve there: pass 1 stages
 * in short transactions while the upload streams in (a transaction held open for the whole upload would pin a
 * pooled connection for minutes), and pass 2 must take the chain locks, which `serialized` takes at the start
 * of its own transaction. Rows of an import killed mid-way are removed by the next import after a day (import
 * ids are ULIDs, so they sort by start time).
 */
const prepareStaging = async (database: Database): Promise<void> => {
  if (database.dialect === 'sqlite') {
    await database.exec(`CREATE TEMP TABLE IF NOT EXISTS audit_staging (
      import_id TEXT NOT NULL, line INTEGER NOT NULL, record_id TEXT NOT NULL, project_id TEXT NOT NULL,
      schema_key TEXT NOT NULL, timestamp TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (import_id, line)
    ) WITHOUT ROWID`);
  }
};
const staleAfterMs = 24 * 60 * 60 * 1000;
const clearStale = async (database: Database, now: Date): Promise<void> => {
  if (database.dialect === 'postgres') {
    await database.run('DELETE FROM audit_staging WHERE import_id < ?', [encodeTime(now.getTime() - staleAfterMs, 10)]);
  }
};

/** Staged rows per INSERT statement (a round trip each on PostgreSQL; 7 values a row, well under its limit). */
const rowsPerStagingInsert: Record<Dialect, number> = { sqlite: 1, postgres: 500 };
const stagingInsertSql = (rows: number): string =>
  `INSERT INTO audit_staging (import_id, line, record_id, project_id, schema_key, timestamp, payload) VALUES ${Array.from(
    { length: rows },
    () => '(?, ?, ?, ?, ?, ?, ?)',
  ).join(', ')}`;

const stage = (database: Database, importId: string, rows: readonly StagedRow[]): Promise<void> =>
  database.transaction(async (tx) => {
    const perInsert = rowsPerStagingInsert[database.dialect];
    for (let first = 0; first < rows.length; first += perInsert) {
      const slice = rows.slice(first, first + perInsert);
      const values: SqlValue[] = [];
      for (const r of slice) values.push(importId, r.line, r.record_id, r.project_id, r.schema_key, r.timestamp, r.payloadJcs);
      await tx.run(stagingInsertSql(slice.length), values);
    }
  });

const stagedRow = z.object({
  line: z.number(),
  record_id: z.string(),
  project_id: z.string(),
  schema_key: z.enum(schemaKeys),
  timestamp: z.string(),
  payload: z.string(),
});
const readStagedSql = `SELECT line, record_id, project_id, schema_key, timestamp, payload FROM audit_staging WHERE import_id = ? AND line > ? ORDER BY line LIMIT ${boundLimit}`;

const withDefaultProject = (raw: unknown, defaultProjectId: string | undefined): unknown =>
  defaultProjectId !== undefined && typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('project_id' in raw)
    ? { ...raw, project_id: defaultProjectId }
    : raw;

/**
 * Imports NDJSON evidence, all or nothing. Pass 1 streams the lines, validates each (errors keep their line
 * numbers) and stages valid ones in `audit_staging` in short transactions, so memory stays flat whatever the
 * size. If any line failed, the staging is dropped and VALIDATION lists the lines. Otherwise pass 2 chains
 * every staged record in ONE transaction (a crash leaves the chain as it was) and clears the staging.
 */
export const importNdjson = async (
  app: App,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  options: ImportOptions = {},
): Promise<ImportResult> => {
  const { database } = app;
  await prepareStaging(database);
  await clearStale(database, app.now());
  const importId = ulid(app.now().getTime());
  const errors: LineError[] = [];
  const batch: StagedRow[] = [];
  /** Every project the import touches: pass 2 takes their chain locks. */
  const projects = new Set<string>();
  let lines = 0;
  let staged = 0;
  try {
    for await (const line of ndjsonLines(source)) {
      lines = line.number;
      if (line.text.trim() === '') continue;
      let raw: unknown;
      try {
        raw = JSON.parse(line.text);
      } catch {
        errors.push({ line: line.number, message: 'not valid JSON' });
        if (errors.length >= maxReportedErrors) break;
        continue;
      }
      const result = prepareInput(withDefaultProject(raw, options.defaultProjectId), app.now());
      if (!result.ok) {
        errors.push({ line: line.number, message: formatIssues(result.issues) });
        if (errors.length >= maxReportedErrors) break;
        continue;
      }
      batch.push({ ...result.value, line: line.number });
      projects.add(result.value.project_id);
      if (batch.length >= stagingBatch) {
        await stage(database, importId, batch.splice(0));
        staged += stagingBatch;
        options.onProgress?.(options.totalBytes ? line.bytesRead : staged, options.totalBytes ?? null, `validated ${staged} records`);
        options.signal?.throwIfAborted();
        await yieldToLoop();
      }
    }
    if (errors.length > 0) {
      const first = errors[0] as LineError;
      throw new AppError(
        'VALIDATION',
        `${errors.length}${errors.length >= maxReportedErrors ? '+' : ''} invalid line(s), nothing was imported; line ${first.line}: ${first.message}`,
        {
          detail: { errors },
        },
      );
    }
    staged += batch.length;
    await stage(database, importId, batch.splice(0));
    options.onProgress?.(options.totalBytes ?? staged, options.totalBytes ?? null, `chaining ${staged} records`);
    const spans = await commitStaged(app, importId, [...projects]);
    noteAppended(app, projects);
    return { lines, imported: staged, projects: spans };
  } finally {
    await database.run('DELETE FROM audit_staging WHERE import_id = ?', [importId]);
  }
};

/** The staged rows of an import in line order, in keyset pages (bounded memory at any size). */
async function* stagedPages(db: Queryable, importId: string): AsyncGenerator<StagedRow[]> {
  let after = 0;
  for (;;) {
    const rows = await db.all(stagedRow, readStagedSql, [importId, after, stagingPage]);
    yield rows.map(({ payload, ...row }) => ({ ...row, payloadJcs: payload }));
    const last = rows.at(-1);
    if (last === undefined || rows.length < stagingPage) return;
    after = last.line;
  }
}

/** Pass 2: chains the staged rows in line order in one transaction; a duplicate record_id names its line. */
const commitStaged = async (app: App, importId: string, projectIds: readonly string[]): Promise<ImportResult['projects']> => {
  const spans = new Map<string, ImportResult['projects'][number]>();
  await writeChain(chainTarget(app), projectIds, (tx) => stagedPages(tx, importId), {
    collect: false,
    recordedAt: app.now().toISOString(),
    label: (input) => `line ${input.line}`,
    onWritten: (projectId, seq, hash) => {
      const span = spans.get(projectId);
      if (span === undefined) spans.set(projectId, { project_id: projectId, first_seq: seq, last_seq: seq, head_hash: hash });
      else {
        span.last_seq = seq;
        span.head_hash = hash;
      }
    },
  });
  return [...spans.values()];
};
