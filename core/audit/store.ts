import { z } from 'zod';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Queryable, TransactionOptions } from '../store/database.ts';
import { sqliteDatabase } from '../store/sqlite-database.ts';
import { noteAppended } from './anchors/scheduler.ts';
import { type ChainTarget, writeChain } from './chain-writer.ts';
import { type EvidenceRow, timeFilter } from './evidence-rows.ts';
import { formatIssues, isProjectId, prepareInput, preparedOrUndefined } from './input.ts';
import type { PreparedInput } from './input.ts';
import { objectList } from './object-list.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceInput, EvidenceRecord, SchemaKey } from './types.ts';

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
    const input = preparedOrUndefined(raw, now);
    if (input === undefined) break;
    prepared.push(input);
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
  // Object-kind arrays (object-list.ts): a fresh `[]` per page deoptimised this generator at its first push.
  let chunk: PreparedInput[] = objectList();
  for (let i = 0; i < inputs.length; i++) {
    const input = preparedOrUndefined(inputs[i], now);
    if (input === undefined) throw new InvalidInput();
    chunk.push(input);
    if (chunk.length === chunkSize) {
      yield chunk;
      chunk = objectList();
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The project ids the inputs name, or undefined when one of them has no valid project id (the batch is invalid). */
const namedProjects = (inputs: Inputs): string[] | undefined => {
  const ids = new Set<string>();
  // A batch usually names one project: the pattern runs once per change of id, not once per record.
  let last: unknown;
  for (const raw of inputs) {
    const id = typeof raw === 'object' && raw !== null ? raw.project_id : undefined;
    if (id === last && ids.size > 0) continue;
    if (!isProjectId(id)) return undefined;
    ids.add(id);
    last = id;
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
