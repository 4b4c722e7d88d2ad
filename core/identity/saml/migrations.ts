import type { Migration } from '../../store/db.ts';

/** Tables of the SAML and OIDC login flows (one list: identity/migrations.ts imports it as samlOidcMigrations). */
export const samlOidcMigrations: readonly Migration[] = [
  {
    id: 'saml/001-config-requests-replay',
    up: (db) => {
      db.exec(`
        CREATE TABLE saml_config (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
        CREATE TABLE saml_requests (
          id TEXT PRIMARY KEY,
          relay_state TEXT,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL
        );
        CREATE TABLE saml_seen_assertions (id TEXT PRIMARY KEY, expires_at TEXT NOT NULL);
        CREATE INDEX saml_seen_assertions_expiry ON saml_seen_assertions (expires_at);
      `);
    },
  },
  {
    id: 'oidc/001-pending-logins',
    up: (db) => {
      db.exec(`
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
      `);
    },
  },
  {
    // The two-step ACS (acs-handoff.ts): a validated Response waits here, under a hashed one-time handle, for
    // the browser step that checks the login cookie.
    id: 'saml/002-acs-handoffs',
    up: (db) =>
      db.exec(`
        CREATE TABLE saml_acs_handoffs (handle_hash TEXT PRIMARY KEY, json TEXT NOT NULL, expires_at TEXT NOT NULL);
        CREATE INDEX saml_acs_handoffs_expiry ON saml_acs_handoffs (expires_at);
      `),
  },
  {
    // IdP-initiated login became an opt-in (default off). Stored options hold every key, defaults included, so a
    // stored `true` cannot be told from the old default: switch it off; an admin who wants it turns it on again.
    id: 'saml/003-idp-initiated-opt-in',
    up: (db) => db.exec(`UPDATE saml_config SET json = json_set(json, '$.allowIdpInitiated', json('false'))`),
  },
];
