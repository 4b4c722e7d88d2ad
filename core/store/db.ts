import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** One schema change. Ids are `<domain>/<NNN>-<name>`; applied once, in core/migrations.ts order, inside a transaction. */
export type Migration = {
  readonly id: string;
  readonly up: (db: Db) => void;
};

/**
 * Opens (creating if needed) the SQLite file, or `:memory:` for tests, and brings its schema up to date.
 * WAL keeps readers off the writer's back; `synchronous = FULL` makes an acknowledged write survive a kill -9
 * or power loss (NORMAL may lose the last transactions on power loss in WAL mode).
 */
export const openDatabase = (file: string, migrations: readonly Migration[], nativeBinding = ''): Db => {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database file's mode.
    closeSync(openSync(file, 'a', 0o600));
  }
  // The desktop app points this at a better-sqlite3 build for Electron's ABI (scripts/start-electron.mjs), while
  // tests and `svc serve` use the Node build in node_modules.
  const db = new Database(file, nativeBinding ? { nativeBinding } : {});
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db, migrations);
  return db;
};

export const migrate = (db: Db, migrations: readonly Migration[]): void => {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(
    db
      .prepare('SELECT id FROM schema_migrations')
      .all()
      .map((row) => (row as { id: string }).id),
  );
  const seen = new Set<string>();
  for (const migration of migrations) {
    if (seen.has(migration.id)) throw new TypeError(`Duplicate migration id ${migration.id}`);
    seen.add(migration.id);
    if (applied.has(migration.id)) continue;
    db.transaction(() => {
      migration.up(db);
      db.prepare('INSERT INTO schema_migrations (id, applied_at) VALUES (?, ?)').run(migration.id, new Date().toISOString());
    })();
  }
};
