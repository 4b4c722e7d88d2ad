import Sqlite from 'better-sqlite3';
import type { Migration } from './db.ts';
import type { PostgresMigration } from './postgres-migrate.ts';

/**
 * PostgreSQL's schema from the SQLite migrations, so each table is declared once: every migration runs, in order,
 * on an in-memory SQLite connection that records the SQL it executes, and that text is translated. The domains
 * write DDL in the subset both accept (TEXT, INTEGER, REAL, PRIMARY KEY, UNIQUE, CHECK, REFERENCES, indexes, ADD
 * COLUMN); the translation covers the rest: INTEGER becomes BIGINT (counters such as seq outgrow 32 bits, and
 * BIGINT reads back as a JS number, postgres-database.ts), REAL becomes DOUBLE PRECISION, `WITHOUT ROWID` and the
 * `main.` schema prefix go. A migration that also moves data (prepared statements) must be spelled for
 * PostgreSQL by its domain (`postgres-migrations.ts`); a missing spelling is an error on first use.
 * core/store/postgres-schema.test.ts compares the resulting schemas table by table.
 */
export const toPostgresDdl = (sqlite: string): string =>
  sqlite
    .replace(/\)\s*WITHOUT\s+ROWID/gi, ')')
    .replace(/\bINTEGER\b/gi, 'BIGINT')
    .replace(/\bREAL\b/gi, 'DOUBLE PRECISION')
    .replace(/\bmain\./g, '');

export const postgresMigrationsOf = (
  migrations: readonly Migration[],
  spelled: readonly PostgresMigration[],
): readonly PostgresMigration[] => {
  const own = new Map(spelled.map((m) => [m.id, m]));
  for (const id of own.keys()) {
    if (!migrations.some((m) => m.id === id)) throw new TypeError(`PostgreSQL spelling for ${id}, which no migration has`);
  }
  const db = new Sqlite(':memory:');
  let recorded: { sql: string[]; movedData: boolean } = { sql: [], movedData: false };
  const exec = db.exec.bind(db);
  const prepare = db.prepare.bind(db);
  db.exec = (source: string) => {
    recorded.sql.push(source);
    return exec(source);
  };
  db.prepare = ((source: string) => {
    recorded.movedData = true;
    return prepare(source);
  }) as typeof db.prepare;
  try {
    return migrations.map((migration) => {
      recorded = { sql: [], movedData: false };
      migration.up(db);
      const spelledOut = own.get(migration.id);
      if (spelledOut !== undefined) return spelledOut;
      if (recorded.movedData) {
        throw new TypeError(`Migration ${migration.id} moves data: give its PostgreSQL spelling in its domain's postgres-migrations.ts`);
      }
      return { id: migration.id, up: recorded.sql.map(toPostgresDdl).join(';\n') };
    });
  } finally {
    db.close();
  }
};
