import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { migrations, postgresMigrations } from '../migrations.ts';
import type { Database, Dialect } from '../store/database.ts';
import { openDatabase } from '../store/db.ts';
import { migratePostgres } from '../store/postgres-migrate.ts';
import { connectPostgres, postgresDatabase } from '../store/postgres-database.ts';
import { sqliteDatabase } from '../store/sqlite-database.ts';
import { freshPostgresUrl, postgresUnavailable } from './postgres.ts';

/** A fresh, fully migrated database on one back end. */
export type TestDatabase = {
  readonly database: Database;
  /** Another pool on the same PostgreSQL database, as a second `svc serve` instance holds; SQLite: the same connection. */
  connect(): Promise<Database>;
  /** Closes every connection opened here and removes the SQLite file. */
  close(): Promise<void>;
};
export type TestBackend = { readonly name: Dialect; open(): Promise<TestDatabase> };

const sqlite: TestBackend = {
  name: 'sqlite',
  open: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-test-sqlite-'));
    const file = join(dir, 'svc.sqlite');
    const db = openDatabase(file, migrations);
    return {
      database: sqliteDatabase(db),
      // One process owns a SQLite file (several instances need PostgreSQL): a second "instance" shares the connection.
      connect: async () => sqliteDatabase(db),
      close: async () => {
        db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: TestBackend = {
  name: 'postgres',
  open: async () => {
    const url = await freshPostgresUrl();
    const first = await connectPostgres(url, { source: 'test database', max: 4 });
    const pools = [first];
    await migratePostgres(first, postgresMigrations());
    return {
      database: postgresDatabase(first),
      connect: async () => {
        const pool = await connectPostgres(url, { source: 'test database', max: 4 });
        pools.push(pool);
        return postgresDatabase(pool);
      },
      close: async () => {
        await Promise.all(pools.map((pool) => pool.end()));
      },
    };
  },
};

/**
 * The back ends a storage test runs on: `describe.each(testBackends)('... on $name', (backend) => { const t =
 * databasePerTest(backend); ... t().database ... })`. PostgreSQL is left out, with the printed reason of
 * postgres.ts, only where no server can be started and CI did not demand one.
 */
export const testBackends: readonly TestBackend[] = postgresUnavailable === undefined ? [sqlite, postgres] : [sqlite];

/** A fresh database on `backend` for each test of the enclosing describe; the returned function gives the current one. */
export const databasePerTest = (backend: TestBackend): (() => TestDatabase) => {
  let current: TestDatabase | undefined;
  beforeEach(async () => {
    current = await backend.open();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('databasePerTest: only inside a test');
    return current;
  };
};
