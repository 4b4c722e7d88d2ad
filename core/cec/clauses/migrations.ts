import type { Migration } from '../../store/db.ts';

export const clauseMigrations: readonly Migration[] = [
  {
    id: 'clauses/001-cadences',
    up: (db) => {
      // A project's own coverage cadence per framework; absent rows fall back to defaultCadences.
      db.exec(`
        CREATE TABLE clause_cadences (
          project_id TEXT NOT NULL,
          framework TEXT NOT NULL,
          cadence TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          updated_by TEXT NOT NULL,
          PRIMARY KEY (project_id, framework)
        ) WITHOUT ROWID;
      `);
    },
  },
];
