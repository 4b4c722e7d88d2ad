import type { PostgresMigration } from '../store/postgres-migrate.ts';

/** PostgreSQL's spelling of pii/migrations.ts. */
export const piiPostgresMigrations: readonly PostgresMigration[] = [
  { id: 'pii/001-state', up: 'CREATE TABLE pii_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)' },
];
