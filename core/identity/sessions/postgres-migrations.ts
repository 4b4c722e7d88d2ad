import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of sessions/migrations.ts. */
export const sessionPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'sessions/001-sessions',
    up: `
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        amr TEXT NOT NULL,
        subject TEXT NOT NULL,
        tier TEXT NOT NULL,
        origin TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX sessions_origin ON sessions (origin);
      CREATE INDEX sessions_expires ON sessions (expires_at);
    `,
  },
  {
    id: 'sessions/002-login-browser-binding',
    up: `
      ALTER TABLE oidc_pending ADD COLUMN browser_binding TEXT;
      ALTER TABLE saml_requests ADD COLUMN browser_binding TEXT;
    `,
  },
];
