import type { Migration } from '../store/db.ts';

export const auditMigrations: readonly Migration[] = [
  {
    id: 'audit/001-records',
    up: (db) => {
      // Clustered by (project, seq): appends land at the end of each project's range and chain walks are
      // sequential reads. payload holds JCS(payload) so the stored text is the hashed text.
      db.exec(`
        CREATE TABLE audit_records (
          project_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          record_id TEXT NOT NULL,
          schema_key TEXT NOT NULL,
          timestamp TEXT NOT NULL,
          recorded_at TEXT NOT NULL,
          payload TEXT NOT NULL,
          prev_hash TEXT NOT NULL,
          hash TEXT NOT NULL,
          PRIMARY KEY (project_id, seq)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX audit_records_record_id ON audit_records (project_id, record_id);
        CREATE INDEX audit_records_key_time ON audit_records (project_id, schema_key, timestamp);
        CREATE TABLE audit_chain_heads (
          project_id TEXT PRIMARY KEY,
          head_seq INTEGER NOT NULL,
          head_hash TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE audit_staging (
          import_id TEXT NOT NULL,
          line INTEGER NOT NULL,
          record_id TEXT NOT NULL,
          project_id TEXT NOT NULL,
          schema_key TEXT NOT NULL,
          timestamp TEXT NOT NULL,
          payload TEXT NOT NULL,
          PRIMARY KEY (import_id, line)
        ) WITHOUT ROWID;
      `);
    },
  },
  {
    // Staging moved to a per-connection TEMP table (import.ts); rows that killed imports left here go.
    id: 'audit/002-clear-persistent-staging',
    up: (db) => db.exec('DELETE FROM main.audit_staging'),
  },
  {
    id: 'audit/003-anchors',
    up: (db) => {
      // One anchor per (project, seq): anchoring a head that has not moved adds nothing.
      db.exec(`
        CREATE TABLE audit_anchors (
          project_id TEXT NOT NULL,
          seq INTEGER NOT NULL,
          head_hash TEXT NOT NULL,
          kind TEXT NOT NULL,
          token TEXT NOT NULL,
          created_at TEXT NOT NULL,
          PRIMARY KEY (project_id, seq)
        ) WITHOUT ROWID;
      `);
    },
  },
];
