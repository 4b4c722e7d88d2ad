import { z } from 'zod';
import type { App } from '../app.ts';
import { recordColumns } from './evidence-rows.ts';
import { evidenceRow, rowToRecord } from './store.ts';
import { timeFilter } from './evidence-rows.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceRecord, SchemaKey } from './types.ts';
import { boundLimit } from '../store/sql-text.ts';

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

/** One page of a project's records in chain order, filtered by schema key and inclusive UTC date range. */
export const queryEvidence = async (app: App, q: EvidenceQuery): Promise<EvidencePage> => {
  const time = timeFilter(q.from, q.to);
  const key = q.schemaKey ?? '';
  const filter = `project_id = ? AND ${time.sql} AND (? = '' OR schema_key = ?)`;
  const params = [q.projectId, ...time.params, key, key];
  const offset = q.cursor === undefined && q.page !== undefined ? (q.page - 1) * q.limit : 0;
  // Page and total from one snapshot, so the total counts the records the pages are drawn from.
  const snapshot = await app.database.snapshot();
  try {
    // One extra row tells whether another page exists without a second query.
    const pageSql = `SELECT ${recordColumns} FROM audit_records WHERE ${filter} AND seq > ? ORDER BY seq LIMIT ${boundLimit} OFFSET ?`;
    const rows = await snapshot.all(evidenceRow, pageSql, [...params, q.cursor ?? 0, q.limit + 1, offset]);
    const records = rows.slice(0, q.limit).map(rowToRecord);
    const total = (await snapshot.one(countRow, `SELECT count(*) AS n FROM audit_records WHERE ${filter}`, params))?.n ?? 0;
    return {
      records,
      next_cursor: rows.length > q.limit ? (records.at(-1)?.seq ?? null) : null,
      total,
      page: q.cursor === undefined ? (q.page ?? 1) : null,
      limit: q.limit,
    };
  } finally {
    await snapshot.close();
  }
};

export type ProjectSummary = {
  project_id: string;
  record_count: number;
  counts: Record<SchemaKey, number>;
  head_seq: number;
  head_hash: string;
  updated_at: string;
};

const countRow = z.object({ n: z.number() });
const headRow = z.object({ project_id: z.string(), head_seq: z.number(), head_hash: z.string(), updated_at: z.string() });
const projectCountRow = z.object({ project_id: z.string(), schema_key: z.enum(schemaKeys), n: z.number() });
const zeroCounts = (): Record<SchemaKey, number> => Object.fromEntries(schemaKeys.map((k) => [k, 0])) as Record<SchemaKey, number>;

/** Every project with records: counts per schema key and its chain head. */
export const listProjects = async (app: App): Promise<ProjectSummary[]> => {
  const snapshot = await app.database.snapshot();
  try {
    const counts = new Map<string, Record<SchemaKey, number>>();
    const rows = await snapshot.all(
      projectCountRow,
      'SELECT project_id, schema_key, count(*) AS n FROM audit_records GROUP BY project_id, schema_key',
    );
    for (const row of rows) {
      let perKey = counts.get(row.project_id);
      if (perKey === undefined) {
        perKey = zeroCounts();
        counts.set(row.project_id, perKey);
      }
      perKey[row.schema_key] = row.n;
    }
    const heads = await snapshot.all(
      headRow,
      'SELECT project_id, head_seq, head_hash, updated_at FROM audit_chain_heads ORDER BY project_id',
    );
    return heads.map((head) => {
      const perKey = counts.get(head.project_id) ?? zeroCounts();
      return {
        project_id: head.project_id,
        record_count: Object.values(perKey).reduce((a, b) => a + b, 0),
        counts: perKey,
        head_seq: head.head_seq,
        head_hash: head.head_hash,
        updated_at: head.updated_at,
      };
    });
  } finally {
    await snapshot.close();
  }
};
