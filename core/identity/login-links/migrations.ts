import type { Migration } from '../../store/db.ts';

/** One-time login links, in the database so every instance of a team server redeems each at most once. */
export const loginLinkMigrations: readonly Migration[] = [
  {
    id: 'login-links/001-one-time-links',
    up: (db) => db.exec(loginLinksTable),
  },
];

/** The same text on both back ends (postgres-migrations.ts reuses it). */
export const loginLinksTable = `
  CREATE TABLE login_links (
    digest TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
  );
  CREATE INDEX login_links_expires ON login_links (expires_at);
`;
