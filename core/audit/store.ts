import { z } from 'zod';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Queryable, TransactionOptions } from '../store/database.ts';
import { sqliteDatabase } from '../store/sqlite-database.ts';
import { noteAppended } from './anchors/scheduler.ts';
import { type ChainTarget, recordColumns as columns, writeChain } from './chain-writer.ts';
import { formatIssues, isProjectId, prepareInput } from './input.ts';
import type { PreparedInput } from './input.ts';
import { isSchemaKey, schemaKeys } from './types.ts';
import type { EvidenceInput, EvidenceRecord, SchemaKey } from './types.ts';

/** Stored row shape (payload as JCS text). */
export type EvidenceRow = Omit<EvidenceRecord, 'payload'> & { payload: string };

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

/** Throws like a failed row schema: a stored row that is not what the chain writer writes. */
const badRow = (field: string): never => {
  throw new AppError('INTERNAL', `Stored evidence row has an invalid ${field}`);
};

/**
 * `evidenceRow`'s checks by hand, for rows read as column values in `recordColumns` order (Queryable.tuples):
 * the store's hot paths (bundle builds, exports, chain verification) read every record, where building and
 * parsing an object per row cost more than the query (docs/decisions.md, "Bundle build speed (issue 12)").
 */
export const evidenceTuple = (values: readonly unknown[]): EvidenceRow => {
  const [seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash] = values;
  if (typeof seq !== 'number') return badRow('seq');
  if (typeof record_id !== 'string') return badRow('record_id');
  if (typeof project_id !== 'string') return badRow('project_id');
  if (!isSchemaKey(schema_key)) return badRow('schema_key');
  if (typeof timestamp !== 'string') return badRow('timestamp');
  if (typeof recorded_at !== 'string') return badRow('recorded_at');
  if (typeof payload !== 'string') return badRow('payload');
  if (typeof prev_hash !== 'string') return badRow('prev_hash');
  if (typeof hash !== 'string') return badRow('hash');
  return { seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash };
};

const chainSql = `SELECT ${columns} FROM audit_records WHERE project_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?`;

type Inputs = readonly (EvidenceInput | Readonly<Record<string, unknown>>)[];

/** Throws VALIDATION listing the first 100 invalid inputs by index, if any input is invalid. */
const rejectInvalid = (inputs: Inputs, now: Date): void => {
  const errors: { index: number; message: string }[] = [];
  inputs.forEach((raw, index) => {
    const result = prepareInput(raw, now);
    if (!result.ok && errors.length < 100) errors.push({ index, message: formatIssues(result.issues) });
  });
  if (errors.length > 0) {
    const first = errors[0] as { index: number; message: string };
    throw new AppError('VALIDATION', `${errors.length} invalid record(s), nothing was written; record ${first.index}: ${first.message}`, {
      detail: { errors },
    });
  }
};

/**
 * Validates every input (envelope and payload schema) before anything is written. Throws VALIDATION listing the
 * bad indexes. The valid case is one pass that keeps only the prepared inputs; the first invalid input hands
 * over to rejectInvalid.
 */
const prepareAll = (inputs: Inputs, now: Date): PreparedInput[] => {
  const prepared: PreparedInput[] = [];
  for (const raw of inputs) {
    const result = prepareInput(raw, now);
    if (!result.ok) break;
    prepared.push(result.value);
  }
  if (prepared.length < inputs.length) rejectInvalid(inputs, now);
  return prepared;
};

/**
 * The app's chain target: on SQLite, the connection `database` wraps, for the synchronous per-row INSERTs of the
 * desktop's ingest hot path (chain-writer.ts).
 */
export const chainTarget = (app: App): ChainTarget => ({
  database: app.database,
  sqlite: app.database.dialect === 'sqlite' && app.database === sqliteDatabase(app.db) ? app.db : null,
});

const projectsOf = (prepared: readonly PreparedInput[]): string[] => [...new Set(prepared.map((input) => input.project_id))];

/** Inputs prepared this many at a time inside a SQLite write transaction (see appendEvidence). */
const chunkSize = 256;

/** Thrown inside the write transaction at the first invalid input, so that it rolls back; rejectInvalid then reports. */
class InvalidInput extends Error {
  constructor() {
    super('an evidence input was invalid on one read and valid on the next');
  }
}

/** The inputs prepared `chunkSize` at a time; throws InvalidInput at the first invalid one. */
function* preparedChunks(inputs: Inputs, now: Date): Generator<PreparedInput[]> {
  let chunk: PreparedInput[] = [];
  for (let i = 0; i < inputs.length; i++) {
    const result = prepareInput(inputs[i], now);
    if (!result.ok) throw new InvalidInput();
    chunk.push(result.value);
    if (chunk.length === chunkSize) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The project ids the inputs name, or undefined when one of them has no valid project id (the batch is invalid). */
const namedProjects = (inputs: Inputs): string[] | undefined => {
  const ids = new Set<string>();
  for (const raw of inputs) {
    const id = typeof raw === 'object' && raw !== null ? raw.project_id : undefined;
    if (!isProjectId(id)) return undefined;
    ids.add(id);
  }
  return [...ids];
};

/**
 * Validates every input, then appends all of them to their projects' chains in one transaction on
 * `app.database`, under each project's chain lock (any number of instances on one PostgreSQL database append
 * to one chain without fork, gap or duplicate seq). Throws VALIDATION (nothing written) or CONFLICT on a
 * duplicate record_id (nothing written); VALIDATION wins when a batch has both.
 *
 * On the app's own SQLite connection the inputs are validated and written 256 at a time inside the one
 * transaction, so each one's JCS text dies young instead of surviving every scavenge of the batch (a quarter of
 * the append's garbage collection, docs/decisions.md "Ingest, fourth pass"). The contract is the same: any
 * failure (an invalid input, a duplicate, an I/O error) rolls the whole batch back, and if any input of the
 * batch is invalid the error is the VALIDATION report over all of them, as when validation ran first. On
 * PostgreSQL validation still runs before the chain locks are taken, so another instance is not kept waiting.
 */
export const appendEvidence = async (app: App, inputs: Inputs, commit: TransactionOptions = {}): Promise<EvidenceRecord[]> => {
  const now = app.now();
  const options = { collect: true, recordedAt: app.now().toISOString(), ...commit };
  const target = chainTarget(app);
  let projectIds = target.sqlite === null ? undefined : namedProjects(inputs);
  let records: EvidenceRecord[];
  if (projectIds === undefined) {
    const prepared = prepareAll(inputs, now);
    projectIds = projectsOf(prepared);
    records = await writeChain(target, projectIds, () => [prepared], options);
  } else {
    try {
      records = await writeChain(target, projectIds, () => preparedChunks(inputs, now), options);
    } catch (error) {
      rejectInvalid(inputs, now);
      throw error;
    }
  }
  noteAppended(app, projectIds);
  return records;
};

const pageSize = 1000;

export type EvidenceFilter = { projectId: string; from?: string; to?: string; schemaKey?: SchemaKey };

/**
 * The half-open instant range [start, end) of an inclusive `YYYY-MM-DD` UTC date range: start is the first day's
 * midnight ('' when absent: the empty string sorts first under every collation), end the midnight after the last
 * day, or null when absent (or past year 9999).
 */
export const dayBounds = (from?: string, to?: string): { start: string; end: string | null } => {
  for (const day of [from, to]) {
    if (day !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))) {
      throw new AppError('VALIDATION', `Invalid date ${day.slice(0, 40)}; expected YYYY-MM-DD`);
    }
  }
  const start = from === undefined ? '' : `${from}T00:00:00.000Z`;
  if (to === undefined) return { start, end: null };
  const next = new Date(`${to}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  // After 9999-12-31 no record can lie (event times have four-digit years), and '+010000-…' would sort first.
  return { start, end: next.getUTCFullYear() > 9999 ? null : next.toISOString() };
};

/**
 * The event-time condition of an inclusive UTC date range, for SQL on either back end. An open end is no upper
 * bound rather than a sentinel string: a sentinel's order depends on the collation (glibc's en_US ignores U+FFFF,
 * so `timestamp < '\uffff'` matched nothing on such a PostgreSQL database).
 */
export const timeFilter = (from?: string, to?: string): { sql: string; params: string[] } => {
  const { start, end } = dayBounds(from, to);
  return end === null ? { sql: 'timestamp >= ?', params: [start] } : { sql: 'timestamp >= ? AND timestamp < ?', params: [start, end] };
};

/** A part of a chain by seq: after `after`, up to and including `through`. */
export type SeqSpan = { readonly after: number; readonly through: number };
const wholeChain: SeqSpan = { after: 0, through: Number.MAX_SAFE_INTEGER };

/**
 * The project's stored rows in chain order whose event time lies in the inclusive UTC date range, optionally of
 * one schema key (and within `span`), from `db` (the app's database or a read snapshot), a page at a time.
 * Keyset pages: bounded memory at any size, and no statement held open between pages (callers may write meanwhile).
 */
export async function* evidencePages(
  db: Queryable,
  q: EvidenceFilter,
  rowsPerPage = pageSize,
  span: SeqSpan = wholeChain,
): AsyncGenerator<EvidenceRow[]> {
  const time = timeFilter(q.from, q.to);
  const key = q.schemaKey ?? '';
  const sql = `SELECT ${columns} FROM audit_records WHERE project_id = ? AND seq > ? AND seq <= ? AND ${time.sql}
    AND (? = '' OR schema_key = ?) ORDER BY seq LIMIT ?`;
  let after = span.after;
  for (;;) {
    const rows = await db.tuples(evidenceTuple, sql, [q.projectId, after, span.through, ...time.params, key, key, rowsPerPage]);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < rowsPerPage) return;
    after = last.seq;
  }
}

/** evidencePages one row at a time. */
export async function* evidenceRows(db: Queryable, q: EvidenceFilter): AsyncGenerator<EvidenceRow> {
  for await (const page of evidencePages(db, q)) yield* page;
}

/** Stored rows fromSeq..toSeq (inclusive) of one project's chain, in order, in keyset pages: the bundle's chain segment. */
export async function* chainRows(
  db: Queryable,
  projectId: string,
  fromSeq: number,
  toSeq: number,
  rowsPerPage = pageSize,
): AsyncGenerator<EvidenceRow> {
  let next = fromSeq;
  while (next <= toSeq) {
    const rows = await db.tuples(evidenceTuple, chainSql, [projectId, next, toSeq, rowsPerPage]);
    yield* rows;
    const last = rows.at(-1);
    if (last === undefined) return;
    next = last.seq + 1;
  }
}

/**
 * The seq of the project's first (`asc`) or last (`desc`) record in the date range within `span`, or null: a
 * walk of the primary key from one end that stops at the first record in range.
 */
export const edgeSeq = async (
  db: Queryable,
  q: EvidenceFilter,
  order: 'asc' | 'desc',
  span: SeqSpan = wholeChain,
): Promise<number | null> => {
  const time = timeFilter(q.from, q.to);
  const sql = `SELECT seq FROM audit_records WHERE project_id = ? AND seq > ? AND seq <= ? AND ${time.sql}
    ORDER BY seq ${order === 'asc' ? 'ASC' : 'DESC'} LIMIT 1`;
  const rows = await db.tuples((values) => values[0], sql, [q.projectId, span.after, span.through, ...time.params]);
  const seq = rows[0];
  if (seq === undefined) return null;
  if (typeof seq !== 'number') return badRow('seq');
  return seq;
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
