import type { Migration } from '../store/db.ts';

/** The PII domain's tables: one row per named fact (last_scan_at), so status survives a restart. */
export const piiMigrations: readonly Migration[] = [
  {
    id: 'pii/001-state',
    up: (db) => {
      db.exec('CREATE TABLE pii_state (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
    },
  },
];
