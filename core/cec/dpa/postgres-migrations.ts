import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of dpa/migrations.ts. */
export const dpaPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'dpa/001-documents',
    up: `
      CREATE TABLE dpa_documents (
        document_id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        generated_at TEXT NOT NULL,
        template_version TEXT NOT NULL,
        document_json TEXT NOT NULL
      );
      CREATE INDEX dpa_documents_project ON dpa_documents (project_id, generated_at);
    `,
  },
];
