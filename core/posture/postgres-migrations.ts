import type { PostgresMigration } from '../store/postgres-migrate.ts';

/** PostgreSQL's spelling of posture/migrations.ts. */
export const posturePostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'posture/001-samples',
    up: 'CREATE TABLE posture_samples (project_id TEXT PRIMARY KEY, created_at TEXT NOT NULL, records BIGINT NOT NULL)',
  },
];
