/**
 * Reading stored evidence rows in chain order, with no validation schemas: the bundle build's segment worker
 * loads this (not store.ts, whose input schemas and chain writer bring zod) so that it starts in tens of ms.
 */
import { AppError } from '../errors.ts';
import type { Queryable } from '../store/database.ts';
import { isSchemaKey } from './types.ts';
import type { EvidenceRecord, SchemaKey } from './types.ts';
import { boundLimit } from '../store/sql-text.ts';

export const recordColumns = 'seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash';

/** Stored row shape (payload as JCS text). */
export type EvidenceRow = Omit<EvidenceRecord, 'payload'> & { payload: string };

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

const chainSql = `SELECT ${recordColumns} FROM audit_records WHERE project_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ${boundLimit}`;

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

/** What a page query selects, from where, how a row's values become a row, and that row's seq (the keyset). */
export type RowShape<T> = {
  readonly columns: string;
  readonly from: string;
  readonly row: (values: readonly unknown[]) => T;
  readonly seqOf: (row: T) => number;
};
const evidenceShape: RowShape<EvidenceRow> = { columns: recordColumns, from: 'audit_records', row: evidenceTuple, seqOf: (row) => row.seq };

/**
 * The project's stored rows in chain order whose event time lies in the inclusive UTC date range, optionally of
 * one schema key (and within `span`), from `db` (the app's database or a read snapshot), a page at a time, as
 * `shape` reads them. Keyset pages: bounded memory at any size, and no statement held open between pages
 * (callers may write meanwhile).
 */
export async function* shapedPages<T>(
  db: Queryable,
  q: EvidenceFilter,
  rowsPerPage: number,
  span: SeqSpan,
  shape: RowShape<T>,
): AsyncGenerator<T[]> {
  const time = timeFilter(q.from, q.to);
  const key = q.schemaKey ?? '';
  const sql = `SELECT ${shape.columns} FROM ${shape.from} WHERE project_id = ? AND seq > ? AND seq <= ? AND ${time.sql}
    AND (? = '' OR schema_key = ?) ORDER BY seq LIMIT ${boundLimit}`;
  let after = span.after;
  for (;;) {
    const rows = await db.tuples(shape.row, sql, [q.projectId, after, span.through, ...time.params, key, key, rowsPerPage]);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (last === undefined || rows.length < rowsPerPage) return;
    after = shape.seqOf(last);
  }
}

/** shapedPages of the stored rows. */
export const evidencePages = (
  db: Queryable,
  q: EvidenceFilter,
  rowsPerPage = pageSize,
  span: SeqSpan = wholeChain,
): AsyncGenerator<EvidenceRow[]> => shapedPages(db, q, rowsPerPage, span, evidenceShape);

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
 * How many of the project's records lie in the date range, counting no further than `limit` (a walk of the
 * key/time index that stops there): whether there are at least that many, without the full count.
 */
export const countUpTo = async (db: Queryable, q: EvidenceFilter, limit: number): Promise<number> => {
  const time = timeFilter(q.from, q.to);
  const sql = `SELECT count(*) FROM (SELECT 1 FROM audit_records WHERE project_id = ? AND ${time.sql} LIMIT ${boundLimit}) AS bounded`;
  const rows = await db.tuples((values) => Number(values[0]), sql, [q.projectId, ...time.params, limit]);
  return rows[0] ?? 0;
};

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
