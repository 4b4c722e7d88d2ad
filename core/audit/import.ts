import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { ulid } from 'ulid';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { formatIssues, prepareInput } from './input.ts';
import type { PreparedInput } from './input.ts';
import { ndjsonLines } from './ndjson.ts';
import { writeChain } from './store.ts';
import type { SchemaKey } from './types.ts';

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
/** Stop reading after this many bad lines: the report is long enough to fix the file. */
const maxReportedErrors = 100;

type StagedRow = PreparedInput & { line: number };

/**
 * Staging lives in a TEMP table of this connection (it shadows the old `main.audit_staging`): SQLite removes it
 * when the process ends, so an import killed mid-way leaves no rows behind, and no later import has to guess
 * which leftovers are abandoned.
 */
const stagingStatements = (db: Db) => {
  db.exec(`CREATE TEMP TABLE IF NOT EXISTS audit_staging (
    import_id TEXT NOT NULL, line INTEGER NOT NULL, record_id TEXT NOT NULL, project_id TEXT NOT NULL,
    schema_key TEXT NOT NULL, timestamp TEXT NOT NULL, payload TEXT NOT NULL, PRIMARY KEY (import_id, line)
  ) WITHOUT ROWID`);
  return {
    insert: db.prepare<[string, number, string, string, string, string, string]>(
      'INSERT INTO audit_staging (import_id, line, record_id, project_id, schema_key, timestamp, payload) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    read: db.prepare<[string, number, number], Omit<StagedRow, 'payloadJcs'> & { payload: string }>(
      'SELECT line, record_id, project_id, schema_key, timestamp, payload FROM audit_staging WHERE import_id = ? AND line > ? ORDER BY line LIMIT ?',
    ),
    clear: db.prepare<[string]>('DELETE FROM audit_staging WHERE import_id = ?'),
  };
};

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
  const st = stagingStatements(app.db);
  const importId = ulid(app.now().getTime());
  const errors: LineError[] = [];
  const batch: StagedRow[] = [];
  const stage = app.db.transaction((rows: StagedRow[]) => {
    for (const r of rows) st.insert.run(importId, r.line, r.record_id, r.project_id, r.schema_key, r.timestamp, r.payloadJcs);
  });
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
      if (batch.length >= stagingBatch) {
        stage(batch.splice(0));
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
    stage(batch.splice(0));
    options.onProgress?.(options.totalBytes ?? staged, options.totalBytes ?? null, `chaining ${staged} records`);
    return { lines, imported: staged, projects: commitStaged(app, st, importId) };
  } finally {
    st.clear.run(importId);
  }
};

/** Pass 2: chains the staged rows in line order in one transaction; a duplicate record_id names its line. */
const commitStaged = (app: App, st: ReturnType<typeof stagingStatements>, importId: string): ImportResult['projects'] => {
  let currentLine = 0;
  function* staged(): Generator<PreparedInput> {
    for (;;) {
      const rows = st.read.all(importId, currentLine, 5000);
      for (const row of rows) {
        currentLine = row.line;
        yield { ...row, schema_key: row.schema_key as SchemaKey, payloadJcs: row.payload };
      }
      if (rows.length < 5000) return;
    }
  }
  const spans = new Map<string, ImportResult['projects'][number]>();
  writeChain(app, staged(), {
    collect: false,
    label: () => `line ${currentLine}`,
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
