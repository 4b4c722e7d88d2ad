import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type App, type CreateAppOptions, createApp, openDatabaseApp } from '../app.ts';
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

/** A test's app: on SQLite one file holds every domain (as in production); on PostgreSQL `app.database` is fresh per test. */
export type TestApp = {
  readonly app: App;
  /** Another app on the same database, as a second `svc serve` instance would be (SQLite: the same app). */
  second(): Promise<App>;
};

/**
 * A fresh app per test on `backend`: `describe.each(testBackends)('... on $name', (backend) => { const t =
 * appPerTest(backend); ... t().app ... })`. On PostgreSQL the app is the one openApp builds (openDatabaseApp on a
 * fresh migrated database): no SQLite at all, and `app.db` throws.
 */
export const appPerTest = (backend: TestBackend, options: Omit<CreateAppOptions, 'dataDir'> = {}): (() => TestApp) => {
  let current: TestApp | undefined;
  const cleanups: (() => Promise<void> | void)[] = [];
  beforeEach(async () => {
    if (backend.name === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'svc-test-app-'));
      const app = createApp({ env: {}, ...options, dataDir: dir });
      cleanups.push(async () => {
        await app.close();
        rmSync(dir, { recursive: true, force: true });
      });
      current = { app, second: async () => app };
      return;
    }
    const database = await backend.open();
    const open = async (db: Database): Promise<App> => {
      const app = await openDatabaseApp({ env: {}, ...options, dataDir: ':memory:' }, db, { closeDatabase: false });
      cleanups.unshift(() => app.close());
      return app;
    };
    cleanups.push(() => database.close());
    current = { app: await open(database.database), second: async () => open(await database.connect()) };
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('appPerTest: only inside a test');
    return current;
  };
};
