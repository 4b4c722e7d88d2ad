import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/** PostgreSQL's spelling of saml/migrations.ts (SAML and OIDC login flows). */
export const samlOidcPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'saml/001-config-requests-replay',
    up: `
      CREATE TABLE saml_config (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
      CREATE TABLE saml_requests (
        id TEXT PRIMARY KEY,
        relay_state TEXT,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
      CREATE TABLE saml_seen_assertions (id TEXT PRIMARY KEY, expires_at TEXT NOT NULL);
      CREATE INDEX saml_seen_assertions_expiry ON saml_seen_assertions (expires_at);
    `,
  },
  {
    id: 'oidc/001-pending-logins',
    up: `
      CREATE TABLE oidc_pending (
        state TEXT PRIMARY KEY,
        nonce TEXT NOT NULL,
        code_verifier TEXT NOT NULL,
        provider_url TEXT NOT NULL,
        client_id TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        scope TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL
      );
    `,
  },
];
