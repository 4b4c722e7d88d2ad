import type { App } from '../app.ts';
import { service } from '../app.ts';
import type { Db } from '../store/db.ts';
import { dayBounds, rowToRecord } from './store.ts';
import type { EvidenceRow } from './store.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceRecord, SchemaKey } from './types.ts';

export type EvidenceQuery = {
  projectId: string;
  schemaKey?: SchemaKey;
  /** Inclusive UTC dates `YYYY-MM-DD` on the event timestamp. */
  from?: string;
  to?: string;
  /** Continue after this seq (keyset paging, stable while records are appended). */
  cursor?: number;
  /** 1-based page number (offset paging, for tables); ignored when cursor is given. */
  page?: number;
  limit: number;
};

export type EvidencePage = {
  records: EvidenceRecord[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: number | null;
  /** Records matching the filters in total. */
  total: number;
  page: number | null;
  limit: number;
};

const filter = `project_id = ? AND timestamp >= ? AND timestamp < ? AND (? = '' OR schema_key = ?)`;
const statements = (db: Db) => ({
  page: db.prepare<[string, string, string, string, string, number, number, number], EvidenceRow>(
    `SELECT seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash
       FROM audit_records WHERE ${filter} AND seq > ? ORDER BY seq LIMIT ? OFFSET ?`,
  ),
  total: db.prepare<[string, string, string, string, string], { n: number }>(`SELECT count(*) AS n FROM audit_records WHERE ${filter}`),
  projects: db.prepare<[], { project_id: string; head_seq: number; head_hash: string; updated_at: string }>(
    'SELECT project_id, head_seq, head_hash, updated_at FROM audit_chain_heads ORDER BY project_id',
  ),
  projectCounts: db.prepare<[], { project_id: string; schema_key: string; n: number }>(
    'SELECT project_id, schema_key, count(*) AS n FROM audit_records GROUP BY project_id, schema_key',
  ),
});
const queries = (app: App) => service(app, 'audit.queries', () => statements(app.db));

/** One page of a project's records in chain order, filtered by schema key and inclusive UTC date range. */
export const queryEvidence = (app: App, q: EvidenceQuery): EvidencePage => {
  const { start, end } = dayBounds(q.from, q.to);
  const key = q.schemaKey ?? '';
  const st = queries(app);
  const offset = q.cursor === undefined && q.page !== undefined ? (q.page - 1) * q.limit : 0;
  // One extra row tells whether another page exists without a second query.
  const rows = st.page.all(q.projectId, start, end, key, key, q.cursor ?? 0, q.limit + 1, offset);
  const records = rows.slice(0, q.limit).map(rowToRecord);
  const total = st.total.get(q.projectId, start, end, key, key)?.n ?? 0;
  return {
    records,
    next_cursor: rows.length > q.limit ? (records.at(-1)?.seq ?? null) : null,
    total,
    page: q.cursor === undefined ? (q.page ?? 1) : null,
    limit: q.limit,
  };
};

export type ProjectSummary = {
  project_id: string;
  record_count: number;
  counts: Record<SchemaKey, number>;
  head_seq: number;
  head_hash: string;
  updated_at: string;
};

/** Every project with records: counts per schema key and its chain head. */
export const listProjects = (app: App): ProjectSummary[] => {
  const st = queries(app);
  const counts = new Map<string, Record<SchemaKey, number>>();
  for (const row of st.projectCounts.all()) {
    let perKey = counts.get(row.project_id);
    if (perKey === undefined) {
      perKey = Object.fromEntries(schemaKeys.map((k) => [k, 0])) as Record<SchemaKey, number>;
      counts.set(row.project_id, perKey);
    }
    perKey[row.schema_key as SchemaKey] = row.n;
  }
  return st.projects.all().map((head) => {
    const perKey = counts.get(head.project_id) ?? (Object.fromEntries(schemaKeys.map((k) => [k, 0])) as Record<SchemaKey, number>);
    return {
      project_id: head.project_id,
      record_count: Object.values(perKey).reduce((a, b) => a + b, 0),
      counts: perKey,
      head_seq: head.head_seq,
      head_hash: head.head_hash,
      updated_at: head.updated_at,
    };
  });
};
