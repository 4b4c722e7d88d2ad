import { EventEmitter } from 'node:events';
import { envSetting } from './config/env-settings.ts';
import { envOnlySettings } from './config/settings-schema.ts';
import { AppError } from './errors.ts';
import { fileSecretStore, memorySecretStore, type SecretStore } from './config/secret-store.ts';
import {
  createSettingsService,
  loadStoredSettings,
  readStoredSettings,
  type SettingsService,
  type StoredSettings,
  settingsChannel,
} from './config/settings.ts';
import type { Logger } from './log.ts';
import { silentLogger } from './log.ts';
import { migrations } from './migrations.ts';
import type { Database, Listening } from './store/database.ts';
import { type Db, openDatabase } from './store/db.ts';
import { securePrivateTree } from './store/private-files.ts';
import { databaseFile } from './store/snapshot.ts';
import { sqliteDatabase } from './store/sqlite-database.ts';

/** What long operations report while they run; the renderer shows it as progress. */
export type ProgressEvent = {
  readonly requestId: string;
  readonly op: string;
  readonly done: number;
  readonly total: number | null;
  readonly message: string;
  /** Who started the operation: only they (and admins) receive its events over HTTP. */
  readonly actorId?: string;
};
export type AppEvents = { progress: ProgressEvent };
export type AppEventName = keyof AppEvents;

export type EventBus = {
  emit<E extends AppEventName>(name: E, payload: AppEvents[E]): void;
  on<E extends AppEventName>(name: E, listener: (payload: AppEvents[E]) => void): () => void;
};

const createEventBus = (): EventBus => {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (name, payload) => void emitter.emit(name, payload),
    on: (name, listener) => {
      emitter.on(name, listener);
      return () => void emitter.off(name, listener);
    },
  };
};

/**
 * The composition root: one database, settings, secrets, logger, clock and event bus. Domain services hang off
 * it through `service()`, so a domain never needs a central registry edited for it.
 */
export type App = {
  /**
   * The SQLite connection under `database` when the app runs on the data dir's file (createApp): the evidence
   * chain's synchronous insert path (audit/chain-writer.ts) and tests that look at rows. On PostgreSQL there is
   * none: reading it throws, so a use that assumes SQLite fails loudly.
   */
  readonly db: Db;
  /** The storage of every domain: the SQLite file (createApp) or PostgreSQL (openApp with SVC_DATABASE_URL). */
  readonly database: Database;
  /** null when the app runs on `:memory:` (tests). */
  readonly dataDir: string | null;
  readonly env: NodeJS.ProcessEnv;
  readonly settings: SettingsService;
  readonly log: Logger;
  readonly events: EventBus;
  readonly now: () => Date;
  readonly services: Map<string, unknown>;
  /** Opens a URL in the user's own browser; only the desktop app has one (RFC 8252 login). */
  readonly openExternal: ((url: string) => Promise<void>) | undefined;
  /**
   * Closes the domain services, then the storage. On SQLite everything is closed before this returns (callers
   * that do not await it still work); on PostgreSQL the promise settles when the pool has ended.
   */
  close(): Promise<void>;
};

/** What every app takes; the storage is never the caller's: openApp reads SVC_DATABASE_URL, createApp opens the file. */
export type CreateAppOptions = {
  /** A directory for the SQLite file and secrets, or ':memory:' for tests. */
  readonly dataDir: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly secrets?: SecretStore;
  readonly log?: Logger;
  readonly now?: () => Date;
  readonly openExternal?: (url: string) => Promise<void>;
};

type Storage = {
  readonly db: Db | undefined;
  readonly database: Database;
  /**
   * Ends what this app opened (not a `database` a test passed in, which the test closes), given the promise of
   * the domain services' own close: a pool ends after them, SQLite closes at once (see App.close).
   */
  readonly close: (servicesClosed: Promise<void>) => Promise<void>;
};

const sqliteOnly = (): never => {
  throw new Error('app.db is SQLite-only and this app runs on PostgreSQL (SVC_DATABASE_URL): on PostgreSQL every domain uses app.database');
};

/** Closes each domain service that has a close(), awaiting those that return a promise. */
const closeServices = async (services: Map<string, unknown>): Promise<void> => {
  const pending: Promise<unknown>[] = [];
  for (const value of services.values()) {
    const closable = value as { close?: () => unknown };
    if (typeof closable.close === 'function') {
      const result = closable.close();
      if (result instanceof Promise) pending.push(result);
    }
  }
  await Promise.all(pending);
};

const assemble = (options: CreateAppOptions, env: NodeJS.ProcessEnv, storage: Storage, stored: StoredSettings): App => {
  const memory = options.dataDir === ':memory:';
  const secrets = options.secrets ?? (memory ? memorySecretStore() : fileSecretStore(options.dataDir));
  const services = new Map<string, unknown>();
  return {
    get db() {
      return storage.db ?? sqliteOnly();
    },
    database: storage.database,
    dataDir: memory ? null : options.dataDir,
    env,
    settings: createSettingsService(storage.database, secrets, env, stored),
    log: options.log ?? silentLogger(),
    events: createEventBus(),
    now: options.now ?? (() => new Date()),
    services,
    openExternal: options.openExternal,
    close: () => storage.close(closeServices(services)),
  };
};

/** The data dir (secrets, local bundles, the SQLite file) made and kept private before anything is written to it. */
const securedDataDir = (options: CreateAppOptions): void => {
  if (options.dataDir !== ':memory:') securePrivateTree(options.dataDir, options.log ?? silentLogger());
};

const openSqlite = (dataDir: string): Db =>
  // The SQLite build is the process's (the desktop app's Electron ABI), whatever env a caller passes.
  openDatabase(dataDir === ':memory:' ? ':memory:' : databaseFile(dataDir), migrations, envSetting(process.env, 'sqliteNativeBinding'));

/**
 * The synchronous SQLite app: tests, benches, and everything that opens the data dir's file. Production entry
 * points call `openApp`, which chooses the back end from SVC_DATABASE_URL; with that set, this refuses (a SQLite
 * app would silently split the data of a team server).
 */
export const createApp = (options: CreateAppOptions): App => {
  const env = options.env ?? process.env;
  if (envSetting(env, 'databaseUrl') !== '') {
    throw new Error('SVC_DATABASE_URL is set: open the app with `await openApp(...)` (core/app.ts), which connects to PostgreSQL');
  }
  securedDataDir(options);
  const db = openSqlite(options.dataDir);
  const close = (servicesClosed: Promise<void>): Promise<void> => {
    // Closed now, synchronously, so a caller that does not await close() finds the file released.
    void sqliteDatabase(db).close();
    db.close();
    return servicesClosed;
  };
  return assemble(options, env, { db, database: sqliteDatabase(db), close }, readStoredSettings(db));
};

export type DatabaseAppOptions = {
  /** Whether app.close() ends `database` too (openApp: yes; a test that shares it between apps: no). */
  readonly closeDatabase: boolean;
};

/**
 * An app whose storage is `database` (PostgreSQL) and nothing else: its settings are loaded from it and reloaded
 * whenever an instance on the same database changes them (LISTEN/NOTIFY). openApp uses it after connecting and
 * migrating; tests use it through appPerTest (core/test-support/backends.ts).
 */
export const openDatabaseApp = async (options: CreateAppOptions, database: Database, how: DatabaseAppOptions): Promise<App> => {
  const env = options.env ?? process.env;
  securedDataDir(options);
  let listening: Listening | undefined;
  const close = async (servicesClosed: Promise<void>): Promise<void> => {
    await servicesClosed;
    await listening?.close();
    if (how.closeDatabase) await database.close();
  };
  const app = assemble(options, env, { db: undefined, database, close }, await loadStoredSettings(database));
  const reload = (): void =>
    void app.settings
      .reload()
      .catch((error: unknown) => app.log.warn({ err: error }, 'settings: reload after a change by another instance failed'));
  listening = await database.listen(settingsChannel, reload);
  return app;
};

/**
 * The composition root of every production entry point (`svc serve`, the desktop app, the CLI commands, the SDK's
 * default app, the bundle build worker). Without SVC_DATABASE_URL: the SQLite file in the data dir, as
 * `createApp`. With it: a checked pool (a bad URL or an unreachable database is one line naming the setting),
 * the migrations applied once under an advisory lock (instances starting together queue on it), and an app on
 * PostgreSQL. The data dir still holds the secrets file and local bundles.
 */
export const openApp = async (options: CreateAppOptions): Promise<App> => {
  const env = options.env ?? process.env;
  const databaseUrl = envSetting(env, 'databaseUrl');
  if (databaseUrl === '') return createApp(options);
  // Loaded only here: the SQLite app (desktop, CLI start-up) never pays for the pg driver.
  const [{ connectPostgres, postgresDatabase }, { migratePostgres }, { postgresMigrations }] = await Promise.all([
    import('./store/postgres-database.ts'),
    import('./store/postgres-migrate.ts'),
    import('./migrations.ts'),
  ]);
  const pool = await connectPostgres(databaseUrl, { source: envOnlySettings.databaseUrl.env, max: envSetting(env, 'databasePoolSize') });
  try {
    await migratePostgres(pool, postgresMigrations());
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new AppError('UNAVAILABLE', `${envOnlySettings.databaseUrl.env}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return openDatabaseApp(options, postgresDatabase(pool), { closeDatabase: true });
};

export { service } from './app-service.ts';
