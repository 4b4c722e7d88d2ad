import type pg from 'pg';

/**
 * A schema change in PostgreSQL's dialect, with the id of its SQLite migration: translated from it
 * (postgres-ddl.ts) or spelled by its domain. DDL text only so far: PostgreSQL databases start from this
 * release, so no data needed moving on one yet.
 */
export type PostgresMigration = {
  readonly id: string;
  readonly up: string;
};

/** Every instance starting at once queues here; the first applies what is missing, the others then find nothing to do. */
const migrationLockKey = 'svc:migrations';

/**
 * Brings a PostgreSQL database up to date: under a session advisory lock (held by one connection for the whole
 * run, released when it ends or the process dies), each missing migration applies in its own transaction with
 * its row in schema_migrations, as on SQLite (store/db.ts `migrate`).
 */
export const migratePostgres = async (pool: pg.Pool, migrations: readonly PostgresMigration[]): Promise<readonly string[]> => {
  const client = await pool.connect();
  const appliedNow: string[] = [];
  let failure: Error | undefined;
  // Checked out, this client has no error listener of the pool's: a lost connection must fail the run, not the process.
  const lost = (error: Error): void => {
    failure = error;
  };
  client.on('error', lost);
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [migrationLockKey]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
    const applied = new Set((await client.query<{ id: string }>('SELECT id FROM schema_migrations')).rows.map((row) => row.id));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.up);
        await client.query('INSERT INTO schema_migrations (id, applied_at) VALUES ($1, $2)', [migration.id, new Date().toISOString()]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`PostgreSQL migration ${migration.id} failed: ${error instanceof Error ? error.message : String(error)}`, {
          cause: error,
        });
      }
      appliedNow.push(migration.id);
    }
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [migrationLockKey]);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw failure;
  } finally {
    // After a failure the connection is closed, not pooled: closing it is what surely releases the lock.
    client.off('error', lost);
    client.release(failure);
  }
  return appliedNow;
};
