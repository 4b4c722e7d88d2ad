import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of api-keys/migrations.ts. */
export const apiKeyPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'api-keys/001-api-keys',
    up: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'api', 'admin')),
        scopes TEXT NOT NULL DEFAULT '[]',
        display_prefix TEXT NOT NULL,
        secret_hash TEXT NOT NULL UNIQUE,
        owner_user_id TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT,
        revoked_at TEXT,
        last_used_at TEXT,
        rotated_to TEXT
      );
      CREATE INDEX api_keys_owner ON api_keys (owner_user_id);
    `,
  },
];
