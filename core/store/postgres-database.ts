import pg from 'pg';
import { AppError } from '../errors.ts';
import type { Database, Queryable, SqlParams } from './database.ts';
import { listenPostgres } from './postgres-listen.ts';
import { numberedPlaceholders } from './sql-text.ts';

/** pg's default leaves BIGINT (count(*), seq) and NUMERIC (sum()) as strings; the domains expect numbers, as SQLite gives. */
const asNumber = (text: string): number => {
  const value = Number(text);
  if (!Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))) {
    throw new RangeError(`PostgreSQL returned ${text}, which a JavaScript number cannot hold exactly`);
  }
  return value;
};
const int8 = 20;
const numeric = 1700;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === int8 || oid === numeric ? asNumber : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Failures that mean "the database is not there right now" (HTTP 503), not "this request is wrong". */
const unavailableCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '53300']);
const isUnavailable = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code;
  // pg's own words for a lost connection: ended under a query, or lost earlier while held idle.
  return (
    (typeof code === 'string' && (unavailableCodes.has(code) || code.startsWith('08'))) ||
    /Connection terminated|connection error and is not queryable/.test(String(error))
  );
};
const translateError = (error: unknown): unknown =>
  isUnavailable(error)
    ? new AppError('UNAVAILABLE', 'The database is unavailable; nothing was changed by this request', { cause: error })
    : error;

type Client = pg.Pool | pg.PoolClient;
const queryable = (client: Client): Queryable => {
  const rows = async (sql: string, params: SqlParams, asArrays = false): Promise<pg.QueryResult> => {
    try {
      const text = numberedPlaceholders(sql);
      const values = params as unknown[];
      return await (asArrays ? client.query({ text, values, rowMode: 'array' }) : client.query(text, values));
    } catch (error) {
      throw translateError(error);
    }
  };
  return {
    dialect: 'postgres',
    all: async (row, sql, params = []) => (await rows(sql, params)).rows.map((r) => row.parse(r)),
    tuples: async (row, sql, params = []) => ((await rows(sql, params, true)).rows as unknown[][]).map(row),
    one: async (row, sql, params = []) => {
      const first = (await rows(sql, params)).rows[0];
      return first === undefined ? undefined : row.parse(first);
    },
    run: async (sql, params = []) => (await rows(sql, params)).rowCount ?? 0,
    exec: async (sql) => {
      try {
        await client.query(sql);
      } catch (error) {
        throw translateError(error);
      }
    },
  };
};

/** A pooled connection held across awaits (a transaction, a snapshot); release() returns or destroys it. */
type Held = { readonly client: pg.PoolClient; release(failure?: Error): void };

/**
 * Checks a connection out for a while. A checked-out client has no listener of the pool's: a connection lost
 * while held (a server restart, a failover, pg_terminate_backend), even idle between two queries, would be
 * emitted as an unhandled 'error' and end the process. The next query on it rejects on its own; the listener
 * keeps the loss quiet and remembers it, so release() destroys the connection instead of pooling it again.
 */
const hold = async (pool: pg.Pool): Promise<Held> => {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw translateError(error);
  }
  let lost: Error | undefined;
  const onError = (error: Error): void => {
    lost = error;
  };
  client.on('error', onError);
  return {
    client,
    release: (failure) => {
      client.off('error', onError);
      client.release(failure ?? lost);
    },
  };
};

/** The Database over a node-postgres pool (each transaction holds one pooled connection until it ends). */
export const postgresDatabase = (pool: pg.Pool): Database => {
  const inTransaction = async <T>(lockKeys: readonly string[], work: (tx: Queryable) => Promise<T>): Promise<T> => {
    const { client, release } = await hold(pool);
    let broken: Error | undefined;
    try {
      // READ COMMITTED (the default) on purpose: each statement after the lock sees the previous holder's commit;
      // REPEATABLE READ would keep the snapshot taken before waiting for the lock.
      await client.query('BEGIN');
      for (const key of lockKeys) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`svc:${key}`]);
      const result = await work(queryable(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw translateError(error);
    } finally {
      release(broken);
    }
  };
  const reads = queryable(pool);
  return {
    ...reads,
    unqueuedReads: reads,
    transaction: (work) => inTransaction([], work),
    // Sorted and unique: two batches that lock the same projects take them in the same order (no deadlock).
    serialized: (key, work) => inTransaction(typeof key === 'string' ? [key] : [...new Set(key)].sort(), work),
    snapshot: async () => {
      const { client, release } = await hold(pool);
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      } catch (error) {
        release(error as Error);
        throw translateError(error);
      }
      let closed = false;
      return {
        ...queryable(client),
        close: async () => {
          if (closed) return;
          closed = true;
          // A read-only transaction has nothing to keep: a failed COMMIT only means the connection is gone.
          const failure = await client.query('COMMIT').then(
            () => undefined,
            (error: Error) => error,
          );
          release(failure);
        },
      };
    },
    listen: (channel, onNotify) => listenPostgres(pool.options, channel, onNotify),
    close: () => pool.end(),
  };
};

/** The URL as it may be shown: the password replaced, so no message or log ever carries it. */
export const redactUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
};

const reasonOf = (error: unknown, password: string): string => {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const reason =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'host not found'
        : code === '28P01' || code === '28000'
          ? 'authentication failed (user or password)'
          : code === '3D000'
            ? 'database does not exist'
            : (message.split('\n')[0] ?? 'unknown error');
  return password === '' ? reason : reason.replaceAll(password, '***');
};

export type PostgresOptions = {
  /** Where the URL came from, named in every error (the setting's environment variable). */
  readonly source: string;
  readonly max?: number;
  readonly connectTimeoutMs?: number;
};

/**
 * A pool on `url`, checked with one query before it is returned. Any failure is one AppError line naming the
 * setting and the URL without its password: start-up shows it and stops, never with a stack trace.
 */
export const connectPostgres = async (url: string, options: PostgresOptions): Promise<pg.Pool> => {
  const shown = redactUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    // Idle connections do not hold the process open: a start-up that fails after connecting still exits (the
    // HTTP listener is what keeps a server running).
    allowExitOnIdle: true,
    types,
  });
  // An idle connection that the server drops must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
    return pool;
  } catch (error) {
    await pool.end().catch(() => undefined);
    const password = URL.canParse(url) ? decodeURIComponent(new URL(url).password) : '';
    throw new AppError('UNAVAILABLE', `${options.source}: cannot connect to ${shown}: ${reasonOf(error, password)}`);
  }
};
