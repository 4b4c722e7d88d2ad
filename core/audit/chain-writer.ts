import type { Statement } from 'better-sqlite3';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Database, Queryable, SqlValue } from '../store/database.ts';
import type { Db } from '../store/db.ts';
import { recordColumns } from './evidence-rows.ts';
import { GENESIS_HASH, canonicalHashInput, hashOfCanonicalInput, needsNoEscape, plainHashInput } from './chain.ts';
import type { PreparedInput } from './input.ts';
import { objectList } from './object-list.ts';
import type { EvidenceRecord } from './types.ts';

/**
 * Appending to the hash chains on both back ends. The linking (head, seq, prev_hash, hash, row values) is written
 * once in `ChainLinker`; `attempt` only decides how rows reach the database.
 */

const headRow = z.object({ head_seq: z.number(), head_hash: z.string() });
const headSql = 'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?';
const setHeadSql = `INSERT INTO audit_chain_heads (project_id, head_seq, head_hash, updated_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (project_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at`;

/**
 * Rows per multi-row INSERT (PostgreSQL: every statement is a round trip, and 10k single-row INSERTs cost ~10 s):
 * 9,000 parameters, under PostgreSQL's 65,535 and SQLite's 32,766.
 */
const rowsPerInsert = 1000;
const insertTexts = new Map<number, string>();
const insertSql = (rows: number): string => {
  let text = insertTexts.get(rows);
  if (text === undefined) {
    text = `INSERT INTO audit_records (${recordColumns}) VALUES ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`;
    insertTexts.set(rows, text);
  }
  return text;
};

/** A project's recorded chain head (seq and hash), or undefined when it has no records. */
export const chainHead = (db: Queryable, projectId: string): Promise<z.infer<typeof headRow> | undefined> =>
  db.one(headRow, headSql, [projectId]);

/** The lock key of a project's chain: every append to it, from any instance, takes it. */
export const chainLockKey = (projectId: string): string => `chain:${projectId}`;

const isUniqueViolation = (error: unknown): boolean => {
  const code = String((error as { code?: unknown } | null)?.code);
  return code.startsWith('SQLITE_CONSTRAINT') || code === '23505';
};

export type WriteOptions<I extends PreparedInput> = {
  /** Build and return the records (appends); false for bulk import, which needs only the spans. */
  readonly collect: boolean;
  readonly recordedAt: string;
  /** Names the offending input in a CONFLICT message (import: its line number). */
  readonly label?: (input: I, index: number) => string;
  readonly onWritten?: (projectId: string, seq: number, hash: string) => void;
  /** Commit without stalling the event loop on fsync (Database TransactionOptions). */
  readonly syncOffThread?: boolean;
};

/**
 * A project's head while linking. `plain`: its project id and recorded_at need no JSON escape, `hashPlain`: nor
 * does its hash (read from the database once, then our own hex). Checked once per project, so each record scans
 * only its own id, key and time before its hashed text is written without escapes (chain.ts plainHashInput).
 */
type Head = { seq: number; hash: string; plain: boolean; hashPlain: boolean };

/** The payload slot of a record that is hashed and stored but not returned (the stored text is the JCS). */
const notCollected: Record<string, unknown> = Object.freeze({});

/** Links inputs onto their projects' chains and queues their rows; pure, `attempt` does the I/O. */
class ChainLinker<I extends PreparedInput> {
  readonly heads = new Map<string, Head>();
  /** Of object elements kind from the start (object-list.ts): link() pushes to a fresh one per append. */
  readonly records: EvidenceRecord[] = objectList();
  /**
   * The multi-row INSERT's queue: values of the queued rows, nine per row, the inputs they came from, how many
   * are queued and the first one's index (to name a duplicate).
   */
  values: SqlValue[] = [];
  inputs: I[] = [];
  queued = 0;
  firstIndex = 0;

  constructor(private readonly options: WriteOptions<I>) {}

  headOf(projectId: string): Head | undefined {
    return this.heads.get(projectId);
  }

  setHead(projectId: string, row: z.infer<typeof headRow> | undefined): Head {
    const hash = row?.head_hash ?? GENESIS_HASH;
    const plain = needsNoEscape(projectId) && needsNoEscape(this.options.recordedAt);
    const head = { seq: row?.head_seq ?? 0, hash, plain, hashPlain: needsNoEscape(hash) };
    this.heads.set(projectId, head);
    return head;
  }

  /** One record per input in its final shape, hashed and completed in place, moving the head: this runs per record. */
  link(input: I, head: Head): EvidenceRecord {
    const { recordedAt, collect } = this.options;
    // The payload is set here, not after hashing: replacing the placeholder with each schema's payload object changed
    // the record's field type in place, and the optimised link() was thrown away (deoptimised) and compiled again.
    const record: EvidenceRecord = {
      seq: head.seq + 1,
      record_id: input.record_id,
      project_id: input.project_id,
      schema_key: input.schema_key,
      timestamp: input.timestamp,
      recorded_at: recordedAt,
      prev_hash: head.hash,
      payload: collect ? (input.payload ?? (JSON.parse(input.payloadJcs) as Record<string, unknown>)) : notCollected,
      hash: '',
    };
    const plain =
      head.plain && head.hashPlain && needsNoEscape(input.record_id) && needsNoEscape(input.schema_key) && needsNoEscape(input.timestamp);
    record.hash = hashOfCanonicalInput(plain ? plainHashInput(record, input.payloadJcs) : canonicalHashInput(record, input.payloadJcs));
    head.seq = record.seq;
    head.hash = record.hash;
    head.hashPlain = true;
    this.options.onWritten?.(input.project_id, record.seq, record.hash);
    if (collect) this.records.push(record);
    return record;
  }

  /** Queues a linked record's row for the next multi-row INSERT. */
  queue(input: I, record: EvidenceRecord): void {
    const values = this.values;
    const at = this.queued * 9;
    values[at] = record.seq;
    values[at + 1] = input.record_id;
    values[at + 2] = input.project_id;
    values[at + 3] = input.schema_key;
    values[at + 4] = input.timestamp;
    values[at + 5] = record.recorded_at;
    values[at + 6] = input.payloadJcs;
    values[at + 7] = record.prev_hash;
    values[at + 8] = record.hash;
    this.inputs[this.queued] = input;
    this.queued += 1;
  }

  /** The queued rows as one INSERT, emptying the queue. */
  take(): { sql: string; values: SqlValue[]; inputs: I[]; firstIndex: number } {
    const taken = { sql: insertSql(this.queued), values: this.values, inputs: this.inputs, firstIndex: this.firstIndex };
    this.firstIndex += this.queued;
    this.values = [];
    this.inputs = [];
    this.queued = 0;
    return taken;
  }

  conflict(input: I, index: number): AppError {
    const where = this.options.label?.(input, index) ?? `record ${index}`;
    return new AppError(
      'CONFLICT',
      `${where}: record_id ${input.record_id} already exists in project ${input.project_id}; nothing was written`,
      {
        detail: { index, record_id: input.record_id, project_id: input.project_id },
      },
    );
  }

  headRows(): SqlValue[][] {
    return [...this.heads].map(([projectId, head]) => [projectId, head.seq, head.hash, this.options.recordedAt]);
  }
}

/** A multi-row INSERT hit a duplicate record_id; which row is found by a second, row-by-row attempt. */
class DuplicateInChunk extends Error {
  constructor(readonly chunk: number) {
    super('duplicate record_id in a multi-row insert');
  }
}

/**
 * Where rows go. On SQLite, the app's own connection (the one `database` wraps), one prepared INSERT per row run
 * synchronously inside the transaction: no promise per record on the desktop's ingest hot path, and a duplicate
 * is named by the statement that failed. Otherwise (PostgreSQL) multi-row INSERTs through the transaction.
 */
export type ChainTarget = { readonly database: Database; readonly sqlite: Db | null };

/**
 * Appends the inputs of `source(tx)` (pages, read inside the transaction) to their projects' chains in one
 * transaction under the chain locks of `projectIds` (every project the inputs touch), so appends to one project
 * serialise across instances: no fork, no gap, no duplicate seq. All or nothing: a duplicate record_id rolls
 * everything back with CONFLICT naming the input. `source` is called a second time only to name a duplicate
 * that a multi-row INSERT hit.
 */
export const writeChain = async <I extends PreparedInput>(
  target: ChainTarget,
  projectIds: readonly string[],
  source: (tx: Queryable) => Iterable<readonly I[]> | AsyncIterable<readonly I[]>,
  options: WriteOptions<I>,
): Promise<EvidenceRecord[]> => {
  const keys = projectIds.map(chainLockKey);
  const commit = { syncOffThread: options.syncOffThread === true };
  try {
    return await target.database.serialized(keys, (tx) => attempt(tx, target.sqlite, source(tx), options, null), commit);
  } catch (error) {
    if (!(error instanceof DuplicateInChunk)) throw error;
    // Redo the work up to the failing INSERT, then its rows one by one: the first to fail is the duplicate. This
    // attempt always throws, so it never commits.
    return await target.database.serialized(keys, (tx) => attempt(tx, null, source(tx), options, error.chunk));
  }
};

/** The one-row INSERT of each connection, prepared once (it was prepared again for every append). */
const directInserts = new WeakMap<Db, Statement>();
const directInsert = (db: Db): Statement => {
  let statement = directInserts.get(db);
  if (statement === undefined) {
    statement = db.prepare(insertSql(1));
    directInserts.set(db, statement);
  }
  return statement;
};

const attempt = async <I extends PreparedInput>(
  tx: Queryable,
  sqlite: Db | null,
  pages: Iterable<readonly I[]> | AsyncIterable<readonly I[]>,
  options: WriteOptions<I>,
  rowByRowChunk: number | null,
): Promise<EvidenceRecord[]> => {
  const linker = new ChainLinker(options);
  const direct = sqlite === null ? null : directInsert(sqlite);
  let index = 0;
  /**
   * One row, its nine values bound as arguments: better-sqlite3 reads an array argument element by element
   * through V8's generic property lookup, which cost ~2 µs a row more than arguments (docs/decisions.md, "Ingest,
   * fifth pass").
   */
  const insertDirect = (statement: NonNullable<typeof direct>, input: I, record: EvidenceRecord): void => {
    try {
      statement.run(
        record.seq,
        input.record_id,
        input.project_id,
        input.schema_key,
        input.timestamp,
        record.recorded_at,
        input.payloadJcs,
        record.prev_hash,
        record.hash,
      );
    } catch (error) {
      throw isUniqueViolation(error) ? linker.conflict(input, index) : error;
    }
    index += 1;
  };
  let chunk = 0;
  const insertMany = async (): Promise<void> => {
    const { sql, values, inputs, firstIndex } = linker.take();
    if (chunk === rowByRowChunk) {
      for (const [row, input] of inputs.entries()) {
        try {
          await tx.run(insertSql(1), values.slice(row * 9, row * 9 + 9));
        } catch (error) {
          throw isUniqueViolation(error) ? linker.conflict(input, firstIndex + row) : error;
        }
      }
      throw new AppError('CONFLICT', 'A record_id already exists in its project; nothing was written');
    }
    try {
      await tx.run(sql, values);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new DuplicateInChunk(chunk);
    }
    chunk += 1;
  };
  /**
   * SQLite: links and inserts `page` from `from` on, synchronously, until its end or an input whose project's head
   * is not read yet; returns where it stopped. The per-record loop lives in this small synchronous function rather
   * than in this async one: TurboFan's on-stack replacement of the async loop (resume points and all, with every
   * per-record call inlined) was the costliest compilation of an append, paid by every process at its start.
   */
  const insertRun = (statement: NonNullable<typeof direct>, page: readonly I[], from: number): number => {
    for (let i = from; i < page.length; i++) {
      const input = page[i] as I;
      const head = linker.headOf(input.project_id);
      if (head === undefined) return i;
      insertDirect(statement, input, linker.link(input, head));
    }
    return page.length;
  };
  for await (const page of pages) {
    if (direct !== null) {
      for (let i = insertRun(direct, page, 0); i < page.length; i = insertRun(direct, page, i)) {
        const projectId = (page[i] as I).project_id;
        linker.setHead(projectId, await chainHead(tx, projectId));
      }
      continue;
    }
    // An indexed loop: this async function's for-of made an iterator result per record (~70 bytes of garbage).
    for (let i = 0; i < page.length; i++) {
      const input = page[i] as I;
      const head = linker.headOf(input.project_id) ?? linker.setHead(input.project_id, await chainHead(tx, input.project_id));
      const record = linker.link(input, head);
      linker.queue(input, record);
      if (linker.queued >= rowsPerInsert) await insertMany();
    }
  }
  if (linker.queued > 0) await insertMany();
  for (const row of linker.headRows()) await tx.run(setHeadSql, row);
  return linker.records;
};
