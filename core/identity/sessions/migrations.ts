import type { Migration } from '../../store/db.ts';

/** Every session JWT is a row here (its `sid`), so a session can be listed and ended before its `exp`. */
export const sessionMigrations: readonly Migration[] = [
  {
    id: 'sessions/001-sessions',
    up: (db) =>
      db.exec(`
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
      `),
  },
  {
    // A login started in a browser completes only in that browser: the hash of a cookie value it holds.
    id: 'sessions/002-login-browser-binding',
    up: (db) =>
      db.exec(`
        ALTER TABLE oidc_pending ADD COLUMN browser_binding TEXT;
        ALTER TABLE saml_requests ADD COLUMN browser_binding TEXT;
      `),
  },
];
