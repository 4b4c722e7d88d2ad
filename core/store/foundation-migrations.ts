import type { Migration } from './db.ts';
import type { PostgresMigration } from './postgres-migrate.ts';

export const foundationMigrations: readonly Migration[] = [
  {
    id: 'foundation/001-settings',
    up: (db) => db.exec('CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)'),
  },
];

export const foundationPostgresMigrations: readonly PostgresMigration[] = [
  { id: 'foundation/001-settings', up: 'CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)' },
];
