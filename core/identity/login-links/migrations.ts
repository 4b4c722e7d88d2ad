import type { Migration } from '../../store/db.ts';

/** One-time login links, in the database so every instance of a team server redeems each at most once. */
export const loginLinkMigrations: readonly Migration[] = [
  {
    id: 'login-links/001-one-time-links',
    up: (db) =>
      db.exec(`
        CREATE TABLE login_links (
          digest TEXT PRIMARY KEY,
          expires_at TEXT NOT NULL
        );
        CREATE INDEX login_links_expires ON login_links (expires_at);
      `),
  },
];
