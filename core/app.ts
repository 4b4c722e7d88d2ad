import { EventEmitter } from 'node:events';
import { envSetting } from './config/env-settings.ts';
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
  /** The synchronous SQLite connection of the domains not yet moved to `database`; goes when the last one moves. */
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
  close(): void;
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

export const createApp = (options: CreateAppOptions): App => {
  const env = options.env ?? process.env;
  refuseUnfinishedPostgres(envSetting(env, 'databaseUrl'));
  const memory = options.dataDir === ':memory:';
  if (!memory) securePrivateTree(options.dataDir, options.log ?? silentLogger());
  // The SQLite build is the process's (the desktop app's Electron ABI), whatever env a caller passes.
  const db = openDatabase(memory ? ':memory:' : databaseFile(options.dataDir), migrations, envSetting(process.env, 'sqliteNativeBinding'));
  const secrets = options.secrets ?? (memory ? memorySecretStore() : fileSecretStore(options.dataDir));
  const services = new Map<string, unknown>();
  const app: App = {
    db,
    database: options.database ?? sqliteDatabase(db),
    dataDir: memory ? null : options.dataDir,
    env,
    settings: createSettingsService(db, secrets, env),
    log: options.log ?? silentLogger(),
    events: createEventBus(),
    now: options.now ?? (() => new Date()),
    services,
    openExternal: options.openExternal,
    close: () => {
      for (const value of services.values()) {
        const closable = value as { close?: () => void };
        if (typeof closable.close === 'function') closable.close();
      }
      db.close();
    },
  };
  return app;
};

/** A domain's per-app singleton, created on first use. */
export const service = <T>(app: App, key: string, create: (app: App) => T): T => {
  if (!app.services.has(key)) app.services.set(key, create(app));
  return app.services.get(key) as T;
};
