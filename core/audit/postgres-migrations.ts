import type { PostgresMigration } from '../store/postgres-migrate.ts';

/** PostgreSQL's spelling of audit/migrations.ts (same ids, same tables; seq and counters are BIGINT). */
export const auditPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'audit/001-records',
    up: `
      CREATE TABLE audit_records (
        project_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        record_id TEXT NOT NULL,
        schema_key TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        payload TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (project_id, seq)
      );
      CREATE UNIQUE INDEX audit_records_record_id ON audit_records (project_id, record_id);
      CREATE INDEX audit_records_key_time ON audit_records (project_id, schema_key, timestamp);
      CREATE TABLE audit_chain_heads (
        project_id TEXT PRIMARY KEY,
        head_seq BIGINT NOT NULL,
        head_hash TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE audit_staging (
        import_id TEXT NOT NULL,
        line BIGINT NOT NULL,
        record_id TEXT NOT NULL,
        project_id TEXT NOT NULL,
        schema_key TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        payload TEXT NOT NULL,
        PRIMARY KEY (import_id, line)
      );
    `,
  },
  { id: 'audit/002-clear-persistent-staging', up: 'DELETE FROM audit_staging' },
  {
    id: 'audit/003-anchors',
    up: `
      CREATE TABLE audit_anchors (
        project_id TEXT NOT NULL,
        seq BIGINT NOT NULL,
        head_hash TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (project_id, seq)
      );
    `,
  },
];
