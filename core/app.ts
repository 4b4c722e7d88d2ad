import { EventEmitter } from 'node:events';
import { envSetting } from './config/env-settings.ts';
import { envOnlySettings } from './config/settings-schema.ts';
import { AppError } from './errors.ts';
import { fileSecretStore, memorySecretStore, type SecretStore } from './config/secret-store.ts';
import { createSettingsService, type SettingsService } from './config/settings.ts';
import type { Logger } from './log.ts';
import { silentLogger } from './log.ts';
import { migrations } from './migrations.ts';
import type { Database } from './store/database.ts';
import { type Db, openDatabase } from './store/db.ts';
import { refuseUnfinishedPostgres } from './store/postgres-readiness.ts';
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
   * The synchronous SQLite connection of the domains not yet moved to `database`; goes when the last one moves.
   * On PostgreSQL (openApp with SVC_DATABASE_URL) there is none: reading it throws, so a leftover use fails loudly.
   */
  readonly db: Db;
  /** The asynchronous storage every moved domain uses: SQLite here, PostgreSQL once openApp selects it. */
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

export type CreateAppOptions = {
  /** A directory for the SQLite file and secrets, or ':memory:' for tests. */
  readonly dataDir: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly secrets?: SecretStore;
  readonly log?: Logger;
  readonly now?: () => Date;
  readonly openExternal?: (url: string) => Promise<void>;
  /** The moved domains' storage when it is not the SQLite file (tests on PostgreSQL: core/test-support/backends.ts). */
  readonly database?: Database;
};

/** What openApp takes: the storage comes from the environment (SVC_DATABASE_URL), never from the caller. */
export type OpenAppOptions = Omit<CreateAppOptions, 'database'>;

type Storage = {
  readonly db: Db | undefined;
  readonly database: Database;
  /** Ends the storage this app opened (not a `database` a test passed in, which the test closes). */
  readonly close: () => Promise<void> | void;
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

const assemble = (options: CreateAppOptions, env: NodeJS.ProcessEnv, storage: Storage, settingsDb: Db): App => {
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
    settings: createSettingsService(settingsDb, secrets, env),
    log: options.log ?? silentLogger(),
    events: createEventBus(),
    now: options.now ?? (() => new Date()),
    services,
    openExternal: options.openExternal,
    close: async () => {
      const servicesClosed = closeServices(services);
      // SQLite closes now, synchronously, so a caller that does not await close() finds the file released; a
      // pool ends after the services that may still be using it.
      if (storage.db !== undefined) {
        await Promise.all([servicesClosed, storage.close()]);
        return;
      }
      await servicesClosed;
      await storage.close();
    },
  };
};

const openSqlite = (options: CreateAppOptions): Db => {
  const memory = options.dataDir === ':memory:';
  if (!memory) securePrivateTree(options.dataDir, options.log ?? silentLogger());
  // The SQLite build is the process's (the desktop app's Electron ABI), whatever env a caller passes.
  return openDatabase(memory ? ':memory:' : databaseFile(options.dataDir), migrations, envSetting(process.env, 'sqliteNativeBinding'));
};

/**
 * The synchronous SQLite app: tests, benches, and everything that opens the data dir's file. Production entry
 * points call `openApp`, which chooses the back end from SVC_DATABASE_URL; with that set, this refuses (a SQLite
 * app would silently split the data of a team server).
 */
export const createApp = (options: CreateAppOptions): App => {
  const env = options.env ?? process.env;
  const databaseUrl = envSetting(env, 'databaseUrl');
  refuseUnfinishedPostgres(databaseUrl);
  if (databaseUrl !== '' && options.database === undefined) {
    throw new Error('SVC_DATABASE_URL is set: open the app with `await openApp(...)` (core/app.ts), which connects to PostgreSQL');
  }
  const db = openSqlite(options);
  return assemble(options, env, { db, database: options.database ?? sqliteDatabase(db), close: () => void db.close() }, db);
};

/**
 * An app whose only storage is `database` (PostgreSQL): no SQLite connection, `app.db` throws. openApp uses it
 * after connecting and migrating; tests use it once every domain has moved (core/test-support/backends.ts).
 * `closeDatabase`: whether app.close() ends the database too (openApp: yes; a test that shares it: no).
 */
export const databaseApp = (options: OpenAppOptions, database: Database, closeDatabase: boolean): App => {
  const env = options.env ?? process.env;
  if (options.dataDir !== ':memory:') securePrivateTree(options.dataDir, options.log ?? silentLogger());
  // Settings move onto the Database next (issue 15 step 0); until then an in-memory SQLite holds them here.
  // Unreachable in production: 'settings' is still in domainsNotYetOnPostgres, so openApp refuses first.
  const settingsDb = openDatabase(':memory:', migrations, envSetting(process.env, 'sqliteNativeBinding'));
  const close = async (): Promise<void> => {
    settingsDb.close();
    if (closeDatabase) await database.close();
  };
  return assemble(options, env, { db: undefined, database, close }, settingsDb);
};

/**
 * The composition root of every production entry point (`svc serve`, the desktop app, the CLI commands, the SDK's
 * default app, the bundle build worker). Without SVC_DATABASE_URL: the SQLite file in the data dir, as
 * `createApp`. With it: refused (one line, exit 2) while domains remain SQLite-only; then a checked pool,
 * the migrations applied once under an advisory lock (instances starting together queue on it), and an app
 * on PostgreSQL. The data dir still holds the secrets file and local bundles.
 */
export const openApp = async (options: OpenAppOptions): Promise<App> => {
  const env = options.env ?? process.env;
  const databaseUrl = envSetting(env, 'databaseUrl');
  if (databaseUrl === '') return createApp(options);
  refuseUnfinishedPostgres(databaseUrl);
  return openPostgresApp(databaseUrl, options);
};

/** openApp's PostgreSQL half, without the readiness check (tested directly until every domain has moved). */
export const openPostgresApp = async (databaseUrl: string, options: OpenAppOptions): Promise<App> => {
  // Loaded only here: the SQLite app (desktop, CLI start-up) never pays for the pg driver.
  const [{ connectPostgres, postgresDatabase }, { migratePostgres }, { postgresMigrations }] = await Promise.all([
    import('./store/postgres-database.ts'),
    import('./store/postgres-migrate.ts'),
    import('./migrations.ts'),
  ]);
  const pool = await connectPostgres(databaseUrl, { source: envOnlySettings.databaseUrl.env });
  try {
    await migratePostgres(pool, postgresMigrations());
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new AppError('UNAVAILABLE', `${envOnlySettings.databaseUrl.env}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return databaseApp(options, postgresDatabase(pool), true);
};

/** A domain's per-app singleton, created on first use. */
export const service = <T>(app: App, key: string, create: (app: App) => T): T => {
  if (!app.services.has(key)) app.services.set(key, create(app));
  return app.services.get(key) as T;
};
