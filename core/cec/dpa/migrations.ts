import type { Migration } from '../../store/db.ts';

export const dpaMigrations: readonly Migration[] = [
  {
    id: 'dpa/001-documents',
    up: (db) => {
      // The whole DPADocument is kept as JSON; the columns beside it are what lists filter and sort on.
      db.exec(`
        CREATE TABLE dpa_documents (
          document_id TEXT PRIMARY KEY,
          project_id TEXT NOT NULL,
          generated_at TEXT NOT NULL,
          template_version TEXT NOT NULL,
          document_json TEXT NOT NULL
        );
        CREATE INDEX dpa_documents_project ON dpa_documents (project_id, generated_at);
      `);
    },
  },
];
