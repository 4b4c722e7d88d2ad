import { closeSync, fsync, openSync } from 'node:fs';
import BetterSqlite3, { type Statement } from 'better-sqlite3';
import {
  CommittedNotSynced,
  type Database,
  type Queryable,
  type ReadSnapshot,
  type SqlParams,
  type TransactionOptions,
} from './database.ts';
import type { Db } from './db.ts';

/**
 * The asynchronous Database over the app's better-sqlite3 connection, so the domains and the synchronous users of
 * `app.db` (the chain writer's per-row INSERTs, tests) share one connection, one file and one transaction at a time.
 *
 * better-sqlite3 runs every statement at once; the promises only give both back ends one shape. Two rules keep
 * the shared connection honest: (1) calls outside a transaction wait while one is open, so no other async flow's
 * statement lands inside it; (2) a transaction may await only database calls: they resolve as microtasks, so no
 * timer, I/O callback or HTTP request (whose synchronous code would write into the open transaction) runs
 * before it ends. A transaction still open when the event loop turns is rolled back with an error that says so.
 */
const wrappers = new WeakMap<Db, Database>();

/** The one Database of a connection: every caller must share its transaction gate, so it is made once per connection. */
export const sqliteDatabase = (db: Db): Database => {
  let wrapper = wrappers.get(db);
  if (wrapper === undefined) {
    wrapper = wrap(db);
    wrappers.set(db, wrapper);
  }
  return wrapper;
};

/** The statements of one connection, run at once (the promises only give both back ends one shape). */
const directQueryable = (db: Db): Queryable => {
  const statements = new Map<string, Statement>();
  // A statement in raw mode returns arrays: one cache entry per (mode, sql).
  const prepare = (sql: string, raw = false): Statement => {
    const key = raw ? `raw:${sql}` : sql;
    let statement = statements.get(key);
    if (statement === undefined) {
      if (statements.size >= 2000) statements.clear();
      statement = db.prepare(sql);
      if (raw) statement.raw(true);
      statements.set(key, statement);
    }
    return statement;
  };
  const rowsOf = (sql: string, params: SqlParams): unknown[] => {
    const statement = prepare(sql);
    if (statement.reader) return statement.all(...params);
    statement.run(...params);
    return [];
  };
  return {
    dialect: 'sqlite',
    all: async (row, sql, params = []) => rowsOf(sql, params).map((r) => row.parse(r)),
    tuples: async (row, sql, params = []) => (prepare(sql, true).all(...params) as unknown[][]).map(row),
    one: async (row, sql, params = []) => {
      const statement = prepare(sql);
      if (!statement.reader) throw new TypeError('one() needs a statement that returns rows');
      const first = statement.get(...params);
      return first === undefined ? undefined : row.parse(first);
    },
    run: async (sql, params = []) => prepare(sql).run(...params).changes,
    exec: async (sql) => void db.exec(sql),
  };
};

/**
 * A read-only connection to the same file inside one deferred transaction: in WAL mode every read sees the
 * database as of the first one while writers (this process or others) go on.
 */
const snapshotOf = async (db: Db, shared: Queryable): Promise<ReadSnapshot> => {
  if (db.memory) return { ...shared, close: async () => {} };
  const reader = openReader(db.name);
  reader.exec('BEGIN DEFERRED');
  return {
    ...directQueryable(reader),
    close: async () => {
      if (!reader.open) return;
      reader.exec('COMMIT');
      reader.close();
    },
  };
};

const openReader = (file: string): Db => {
  const nativeBinding = process.env.SVC_SQLITE_NATIVE_BINDING;
  const reader = new BetterSqlite3(file, { readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
  reader.pragma('busy_timeout = 5000');
  return reader;
};

/**
 * A read-only connection to a database file, without the app: the bundle build's segment worker reads its part
 * of the chain through it, beside the app's connection (WAL: readers never wait for the writer).
 */
export const readerOf = (file: string): Queryable & { close(): void } => {
  const reader = openReader(file);
  return { ...directQueryable(reader), close: () => reader.close() };
};

/**
 * fsyncs the connection's WAL file on libuv's thread pool (fsync reaches the file, whichever descriptor wrote
 * it): what COMMIT under synchronous = FULL does on the calling thread. One thread-pool round trip: opening and
 * closing the file are quick calls here (no data to flush), and with fs/promises' open, sync and close each
 * waited for a turn of the busy event loop (docs/decisions.md, "PII over HTTP, third pass").
 */
const syncWal = async (db: Db): Promise<void> => {
  try {
    const wal = openSync(`${db.name}-wal`, 'r');
    try {
      await new Promise<void>((resolve, reject) => fsync(wal, (error) => (error === null ? resolve() : reject(error))));
    } finally {
      closeSync(wal);
    }
  } catch (error) {
    throw new CommittedNotSynced(error);
  }
};

const wrap = (db: Db): Database => {
  const direct = directQueryable(db);

  /** The transaction between its BEGIN and its COMMIT or ROLLBACK: nothing else runs on the connection meanwhile. */
  let open: Promise<unknown> | null = null;
  /**
   * WAL fsyncs of committed syncOffThread transactions, still on the thread pool. The connection is free while
   * they run (the next group commit overlaps them), but what anyone read or wrote in the meantime may rest on
   * a commit that is not durable yet: every call waits for the fsyncs in flight when it ran before it returns.
   */
  const syncing = new Set<Promise<void>>();
  const inFlight = (): Promise<unknown> | undefined => (syncing.size === 0 ? undefined : Promise.allSettled([...syncing]));
  /** Runs `start` once no transaction is open and returns its result once what it saw is durable. */
  const whenIdle = async <T>(start: () => Promise<T>): Promise<T> => {
    while (open !== null) await open.catch(() => undefined);
    const durable = inFlight();
    try {
      return await start();
    } finally {
      await durable;
    }
  };
  const syncInBackground = (): Promise<void> => {
    const sync = syncWal(db).finally(() => syncing.delete(sync));
    syncing.add(sync);
    return sync;
  };
  /** The safety levels a syncOffThread transaction switches between, prepared once (they run per commit). */
  const safety = { normal: db.prepare('PRAGMA synchronous = NORMAL'), full: db.prepare('PRAGMA synchronous = FULL') };
  const transaction = <T>(work: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> =>
    whenIdle(async () => {
      // SQLite takes the safety level outside transactions only. Only this transaction runs under NORMAL (no
      // statement of anyone else runs until it ends) and FULL is back before its COMMIT or ROLLBACK returns.
      const syncOffThread = options.syncOffThread === true && !db.memory;
      if (syncOffThread) safety.normal.run();
      const end = (sql: 'COMMIT' | 'ROLLBACK'): void => {
        try {
          db.exec(sql);
        } finally {
          if (syncOffThread && !db.inTransaction) safety.full.run();
        }
      };
      try {
        db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        if (syncOffThread) safety.full.run();
        throw error;
      }
      let loopTurned = false;
      let synced: Promise<void> | undefined;
      const watch = setImmediate(() => {
        loopTurned = true;
      });
      const done = (async () => {
        await undefined; // `open` is set before the work starts, even when it throws at once
        try {
          const result = await work(direct);
          if (loopTurned) throw new Error('A SQLite transaction awaited work other than database calls; it was rolled back');
          end('COMMIT');
          // Registered before anyone else can run on the connection: they wait for it before they return.
          if (syncOffThread) synced = syncInBackground();
          return result;
        } catch (error) {
          if (db.inTransaction) end('ROLLBACK');
          throw error;
        } finally {
          clearImmediate(watch);
          open = null;
        }
      })();
      open = done;
      const result = await done;
      // The caller hears of the commit once the WAL is on disk; the next transaction may commit meanwhile (its own
      // fsync, started after its COMMIT, covers this one's frames too: WAL recovery keeps a prefix).
      await synced;
      return result;
    });

  /** The read-only connection behind `unqueuedReads`, once something read through it. */
  let sideReader: ReturnType<typeof readerOf> | undefined;
  const side = (): Queryable => {
    sideReader ??= readerOf(db.name);
    return sideReader;
  };
  const result: Database = {
    dialect: 'sqlite',
    all: (row, sql, params) => whenIdle(() => direct.all(row, sql, params)),
    tuples: (row, sql, params) => whenIdle(() => direct.tuples(row, sql, params)),
    one: (row, sql, params) => whenIdle(() => direct.one(row, sql, params)),
    run: (sql, params) => whenIdle(() => direct.run(sql, params)),
    exec: (sql) => whenIdle(() => direct.exec(sql)),
    transaction,
    // One writer at a time per file, across processes too: BEGIN IMMEDIATE already serialises every writer.
    serialized: (_key, work, options) => transaction(work, options),
    snapshot: () => whenIdle(() => snapshotOf(db, result)),
    unqueuedReads: db.memory
      ? direct
      : { one: (row, sql, params) => side().one(row, sql, params), all: (row, sql, params) => side().all(row, sql, params) },
    // Every writer of this file is in this process (the desktop app or one `svc serve`): nothing to hear.
    listen: async () => ({ close: async () => {} }),
    // The connection belongs to the app (app.close() closes it, after this: synchronously, as that does).
    close: async () => {
      sideReader?.close();
      sideReader = undefined;
    },
  };
  return result;
};
