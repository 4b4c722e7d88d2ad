import type { z } from 'zod';

/**
 * The storage interface every domain moves onto (docs/decisions.md, "PostgreSQL foundation (issue 15)"): one
 * asynchronous API over SQLite (better-sqlite3, the embedded default) and PostgreSQL (node-postgres, team
 * servers). Domains write one SQL spelling: SQLite's `?` placeholders (numbered for PostgreSQL) and the subset
 * both accept: `INSERT ... ON CONFLICT (...) DO UPDATE SET x = excluded.x`, `RETURNING`, JSON kept as TEXT,
 * times as ISO-8601 TEXT from `app.now()`. Where a statement must differ, branch on `dialect`. Rows enter the
 * domain through a zod schema, so the row types are declared once and checked, never cast.
 */
export type Dialect = 'sqlite' | 'postgres';

/** What a placeholder binds. No booleans: both back ends store flags as INTEGER 0/1. */
export type SqlValue = string | number | bigint | Buffer | null;
export type SqlParams = readonly SqlValue[];

/** The calls available inside and outside a transaction. */
export type Queryable = {
  readonly dialect: Dialect;
  /** Every row of a SELECT (or of an INSERT/UPDATE/DELETE ... RETURNING), each parsed by `row`. */
  all<T>(row: z.ZodType<T>, sql: string, params?: SqlParams): Promise<T[]>;
  /**
   * Every row as its column values in SELECT order, each turned into a T by `row` (which must check what it
   * takes). For hot paths only (a bundle build over a million records): the driver skips building an object per
   * row and a zod object schema, which together cost more than the query.
   */
  tuples<T>(row: (values: readonly unknown[]) => T, sql: string, params?: SqlParams): Promise<T[]>;
  /** The first row, parsed; undefined when there is none. */
  one<T>(row: z.ZodType<T>, sql: string, params?: SqlParams): Promise<T | undefined>;
  /** A statement without result rows; resolves to the number of rows it changed. */
  run(sql: string, params?: SqlParams): Promise<number>;
  /** Several statements without parameters (DDL). */
  exec(sql: string): Promise<void>;
};

/** A consistent, read-only view of the database; close it when done (it holds a connection). */
export type ReadSnapshot = Queryable & { close(): Promise<void> };

/** How a transaction commits. */
export type TransactionOptions = {
  /**
   * SQLite: the COMMIT does not fsync on the calling (main) thread; the WAL is fsynced on libuv's thread pool
   * and the promise resolves only after that, so an acknowledged write is as durable as with synchronous = FULL.
   * The connection is free during the fsync (the next group commit overlaps it), but no call that ran meanwhile
   * returns before it is done: nobody hears of the write before it is durable. For hot write paths that must not
   * stall the event loop (PII scan evidence). PostgreSQL's COMMIT waits on the server, never on this thread:
   * ignored there.
   */
  readonly syncOffThread?: boolean;
};

/** The transaction committed but its fsync failed: it may not survive a power loss. Retrying would write it twice. */
export class CommittedNotSynced extends Error {
  constructor(cause: unknown) {
    super(`committed, but fsync of the write-ahead log failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export type Database = Queryable & {
  /**
   * Runs `work` in one transaction (READ COMMITTED on PostgreSQL, SQLite's single writer: BEGIN IMMEDIATE);
   * commits when it resolves, rolls back when it rejects. On SQLite the work must await only database calls
   * (see sqlite-database.ts): the connection is shared with the code that has not moved yet.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Like `transaction`, serialised with every other `serialized` call for the same `key` in any process on this
   * database: a chain append for a project, the anchoring of an interval. PostgreSQL takes a transaction-scoped
   * advisory lock on the key (released at commit or rollback, also when the process dies); SQLite already has
   * one writer at a time. Each statement after the lock sees what the previous holder committed. Several keys
   * (a batch spanning projects) are locked in sorted order, so two such batches cannot deadlock.
   */
  serialized<T>(key: string | readonly string[], work: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One consistent view for a read that spans many pages and event-loop turns (chain verification, exports),
   * while writers go on: PostgreSQL, a REPEATABLE READ READ ONLY transaction on one pooled connection; SQLite, a
   * read-only connection to the file inside one deferred transaction (WAL). An in-memory SQLite database has one
   * connection only: there the view shares it (tests).
   */
  snapshot(): Promise<ReadSnapshot>;
  /**
   * Reads that never queue behind a transaction or an off-thread fsync, for the per-request lookups of tables
   * no `syncOffThread` transaction writes: authentication runs on every request and must not wait for scan
   * evidence to reach the disk. They may see a commit whose fsync is still running, so nothing else reads through
   * them. SQLite: a second, read-only connection to the file (WAL: readers never wait for the writer), opened on
   * first use; in memory, the one connection. PostgreSQL: the pool, as every read.
   */
  readonly unqueuedReads: Pick<Queryable, 'one' | 'all'>;
  /**
   * Calls `onNotify` whenever any instance on this database sends `NOTIFY <channel>` (PostgreSQL: a dedicated
   * connection LISTENs, reconnects when lost and then calls `onNotify` too, since what it missed is unknown).
   * SQLite: one process owns the file, so there is nobody else to hear from; nothing is ever called.
   * Resolves once listening; the result stops it.
   */
  listen(channel: string, onNotify: () => void): Promise<Listening>;
  close(): Promise<void>;
};

export type Listening = { close(): Promise<void> };
