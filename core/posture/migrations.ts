import type { Migration } from '../store/db.ts';

export const postureMigrations: readonly Migration[] = [
  {
    id: 'posture/001-samples',
    up: (db) => {
      // Projects created by "Load a sample project": only these may be dropped (whole chain at once).
      db.exec('CREATE TABLE posture_samples (project_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, records INTEGER NOT NULL)');
    },
  },
];
