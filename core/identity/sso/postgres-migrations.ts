import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of sso/migrations.ts. */
export const ssoPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'sso/001-sessions',
    up: `
      CREATE TABLE sso_sessions (
        session_id TEXT PRIMARY KEY,
        idp_session_id TEXT NOT NULL,
        subject TEXT NOT NULL,
        email TEXT NOT NULL,
        project_id TEXT NOT NULL,
        user_id TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked INTEGER NOT NULL DEFAULT 0,
        revoked_at TEXT
      );
      CREATE INDEX sso_sessions_idp ON sso_sessions (idp_session_id);
      CREATE INDEX sso_sessions_user ON sso_sessions (user_id);
      CREATE INDEX sso_sessions_expires ON sso_sessions (expires_at);
    `,
  },
];
