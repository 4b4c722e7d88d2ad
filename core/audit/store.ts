import type { App } from '../app.ts';
import { service } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Db } from '../store/db.ts';
import { noteAppended } from './anchors/scheduler.ts';
import { GENESIS_HASH, hashWithCanonicalPayload } from './chain.ts';
import { formatIssues, prepareInput } from './input.ts';
import type { PreparedInput } from './input.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceInput, EvidenceRecord, SchemaKey } from './types.ts';

/** Stored row shape (payload as JCS text). */
export type EvidenceRow = Omit<EvidenceRecord, 'payload'> & { payload: string };

export const rowToRecord = (row: EvidenceRow): EvidenceRecord => ({
  ...row,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
});

const columns = 'seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash';

/** Prepared statements, compiled once per app. */
const statements = (db: Db) => ({
  head: db.prepare<[string], { head_seq: number; head_hash: string }>(
    'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?',
  ),
  insertRaw: db.prepare<[number, string, string, string, string, string, string, string, string]>(
    `INSERT INTO audit_records (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  setHead: db.prepare<[string, number, string, string]>(
    `INSERT INTO audit_chain_heads (project_id, head_seq, head_hash, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (project_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at`,
  ),
  chain: db.prepare<[string, number, number, number], EvidenceRow>(
    `SELECT ${columns} FROM audit_records WHERE project_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?`,
  ),
  byRange: db.prepare<[string, number, string, string, string, string, number], EvidenceRow>(
    `SELECT ${columns} FROM audit_records WHERE project_id = ? AND seq > ? AND timestamp >= ? AND timestamp < ?
       AND (? = '' OR schema_key = ?) ORDER BY seq LIMIT ?`,
  ),
  counts: db.prepare<[string, string, string], { schema_key: string; n: number }>(
    `SELECT schema_key, count(*) AS n FROM audit_records WHERE project_id = ? AND timestamp >= ? AND timestamp < ?
     GROUP BY schema_key`,
  ),
});
export type AuditStatements = ReturnType<typeof statements>;
/** The same statements on another connection (a read snapshot). */
export const auditStatementsFor = (db: Db): AuditStatements => statements(db);
export const auditStatements = (app: App): AuditStatements => service(app, 'audit.statements', () => statements(app.db));

/** The payload slot of a record that is hashed and stored but not returned (the stored text is the JCS). */
const notCollected: Record<string, unknown> = Object.freeze({});

const isUniqueViolation = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && String((error as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');

/**
 * Appends prepared inputs to their projects' chains inside one IMMEDIATE transaction (takes the write lock
 * before reading the chain heads, so concurrent writers, even other processes, serialise). All or nothing:
 * a duplicate record_id rolls the whole batch back with CONFLICT. `collect` false skips building the
 * returned records (bulk import).
 */
export const writeChain = (
  app: App,
  prepared: Iterable<PreparedInput>,
  options: {
    collect: boolean;
    /** Names the offending input in a CONFLICT message (import: its line number). */
    label?: (index: number) => string;
    onWritten?: (projectId: string, seq: number, hash: string) => void;
  },
): EvidenceRecord[] => {
  const st = auditStatements(app);
  const recordedAt = app.now().toISOString();
  const out: EvidenceRecord[] = [];
  const touched: string[] = [];
  const run = app.db.transaction(() => {
    const heads = new Map<string, { seq: number; hash: string }>();
    let index = 0;
    for (const input of prepared) {
      let head = heads.get(input.project_id);
      if (head === undefined) {
        const row = st.head.get(input.project_id);
        head = row ? { seq: row.head_seq, hash: row.head_hash } : { seq: 0, hash: GENESIS_HASH };
        heads.set(input.project_id, head);
      }
      // One record per input in its final shape, hashed and completed in place (no copies, no shape changes):
      // this runs per record.
      const record: EvidenceRecord = {
        seq: head.seq + 1,
        record_id: input.record_id,
        project_id: input.project_id,
        schema_key: input.schema_key,
        timestamp: input.timestamp,
        recorded_at: recordedAt,
        prev_hash: head.hash,
        payload: notCollected,
        hash: '',
      };
      record.hash = hashWithCanonicalPayload(record, input.payloadJcs);
      try {
        st.insertRaw.run(
          record.seq,
          input.record_id,
          input.project_id,
          input.schema_key,
          input.timestamp,
          recordedAt,
          input.payloadJcs,
          record.prev_hash,
          record.hash,
        );
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        const where = options.label?.(index) ?? `record ${index}`;
        throw new AppError(
          'CONFLICT',
          `${where}: record_id ${input.record_id} already exists in project ${input.project_id}; nothing was written`,
          {
            detail: { index, record_id: input.record_id, project_id: input.project_id },
          },
        );
      }
      head.seq = record.seq;
      head.hash = record.hash;
      options.onWritten?.(input.project_id, record.seq, record.hash);
      if (options.collect) {
        record.payload = input.payload ?? (JSON.parse(input.payloadJcs) as Record<string, unknown>);
        out.push(record);
      }
      index += 1;
    }
    for (const [projectId, head] of heads) st.setHead.run(projectId, head.seq, head.hash, recordedAt);
    touched.push(...heads.keys());
  });
  run.immediate();
  noteAppended(app, touched);
  return out;
};

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
 * Validates every input (envelope and payload schema), then appends all of them in one transaction.
 * Throws VALIDATION listing the bad indexes (nothing written) or CONFLICT on a duplicate record_id. The valid
 * case is one pass that keeps only the prepared inputs; the first invalid input hands over to rejectInvalid.
 */
export const appendEvidence = (app: App, inputs: Inputs): EvidenceRecord[] => {
  const now = app.now();
  const prepared: PreparedInput[] = [];
  for (const raw of inputs) {
    const result = prepareInput(raw, now);
    if (!result.ok) break;
    prepared.push(result.value);
  }
  if (prepared.length < inputs.length) rejectInvalid(inputs, now);
  return writeChain(app, prepared, { collect: true });
};

const pageSize = 1000;

/** Start and end (exclusive) instants of an inclusive `YYYY-MM-DD` UTC date range; open ends when absent. */
export const dayBounds = (from?: string, to?: string): { start: string; end: string } => {
  for (const day of [from, to]) {
    if (day !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))) {
      throw new AppError('VALIDATION', `Invalid date ${day.slice(0, 40)}; expected YYYY-MM-DD`);
    }
  }
  const start = from === undefined ? '' : `${from}T00:00:00.000Z`;
  if (to === undefined) return { start, end: '\uffff' };
  const next = new Date(`${to}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return { start, end: next.toISOString() };
};

/**
 * The project's records in chain order whose event time lies in the inclusive UTC date range, optionally of
 * one schema key. Reads in pages, so it holds no statement open between yields (callers may write meanwhile).
 */
export function* iterateEvidence(
  app: App,
  q: { projectId: string; from?: string; to?: string; schemaKey?: SchemaKey },
  st: AuditStatements = auditStatements(app),
): IterableIterator<EvidenceRecord> {
  const { start, end } = dayBounds(q.from, q.to);
  const key = q.schemaKey ?? '';
  let after = 0;
  for (;;) {
    const rows = st.byRange.all(q.projectId, after, start, end, key, key, pageSize);
    for (const row of rows) yield rowToRecord(row);
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    after = last.seq;
  }
}

/** Records fromSeq..toSeq (inclusive) of one project's chain, in order; the bundle's chain segment. */
export function* iterateChain(app: App, projectId: string, fromSeq: number, toSeq: number): IterableIterator<EvidenceRecord> {
  const st = auditStatements(app);
  let next = fromSeq;
  while (next <= toSeq) {
    const rows = st.chain.all(projectId, next, toSeq, pageSize);
    for (const row of rows) yield rowToRecord(row);
    const last = rows.at(-1);
    if (last === undefined) return;
    next = last.seq + 1;
  }
}

/** Records per schema key (all six keys present, zero when none) in the inclusive UTC date range. */
export const countEvidence = (app: App, q: { projectId: string; from?: string; to?: string }): Record<SchemaKey, number> => {
  const { start, end } = dayBounds(q.from, q.to);
  const counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  for (const row of auditStatements(app).counts.all(q.projectId, start, end)) {
    if (row.schema_key in counts) counts[row.schema_key as SchemaKey] = row.n;
  }
  return counts;
};
