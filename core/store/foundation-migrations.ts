import type { Migration } from './db.ts';

export const foundationMigrations: readonly Migration[] = [
  {
    id: 'foundation/001-settings',
    up: (db) => db.exec('CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)'),
  },
];
