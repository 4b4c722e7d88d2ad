import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { App } from '../app.ts';
import type { Db } from './db.ts';

export const databaseFile = (dataDir: string): string => join(dataDir, 'workbench.db');

export type Snapshot = { readonly db: Db; close(): void };

/**
 * A consistent view for a read that spans many pages and event-loop turns (chain verification, exports): a
 * separate read-only connection inside one deferred transaction, so in WAL mode every page sees the database as
 * of the first read while writers (this process or others) go on appending. An in-memory database has only
 * one connection; there the caller's reads share it (tests only).
 */
export const openSnapshot = (app: App): Snapshot => {
  if (app.dataDir === null) return { db: app.db, close: () => {} };
  const nativeBinding = process.env.SVC_SQLITE_NATIVE_BINDING;
  const db = new Database(databaseFile(app.dataDir), { readonly: true, ...(nativeBinding ? { nativeBinding } : {}) });
  db.pragma('busy_timeout = 5000');
  db.exec('BEGIN DEFERRED');
  return {
    db,
    close: () => {
      db.exec('COMMIT');
      db.close();
    },
  };
};
