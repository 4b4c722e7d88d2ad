import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of clauses/migrations.ts. */
export const clausePostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'clauses/001-cadences',
    up: `
      CREATE TABLE clause_cadences (
        project_id TEXT NOT NULL,
        framework TEXT NOT NULL,
        cadence TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        PRIMARY KEY (project_id, framework)
      );
    `,
  },
];
