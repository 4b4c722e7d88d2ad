import type { PostgresMigration } from '../store/postgres-migrate.ts';

/** PostgreSQL's spelling of cec/migrations.ts. */
export const cecPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'cec/001-bundles',
    up: `
      CREATE TABLE cec_bundles (
        bundle_id TEXT PRIMARY KEY,
        project_id TEXT NOT NULL,
        org_id TEXT,
        date_from TEXT NOT NULL,
        date_to TEXT NOT NULL,
        zip_path TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        hmac_manifest TEXT NOT NULL,
        record_counts TEXT NOT NULL,
        frameworks_covered TEXT NOT NULL,
        generated_at TEXT NOT NULL,
        size_bytes BIGINT NOT NULL
      );
      CREATE INDEX cec_bundles_generated ON cec_bundles (generated_at);
      CREATE INDEX cec_bundles_zip ON cec_bundles (zip_path);
    `,
  },
  {
    id: 'cec/002-trusted-keys',
    up: 'CREATE TABLE cec_trusted_keys (kid TEXT PRIMARY KEY, jwk TEXT NOT NULL, label TEXT NOT NULL, added_at TEXT NOT NULL)',
  },
];
