import type { Migration } from '../../store/db.ts';

/** Anchoring's own tables (audit_anchors itself came with audit/003-anchors). */
export const anchorMigrations: readonly Migration[] = [
  {
    id: 'anchors/001-claims',
    up: (db) => {
      // One row per project while an instance anchors it: the TSA call runs outside any transaction, so the
      // claim (with a lease, for a claimer that dies mid-call) is what keeps other instances from anchoring too.
      db.exec(`
        CREATE TABLE anchor_claims (
          project_id TEXT PRIMARY KEY,
          claim_id TEXT NOT NULL,
          claimed_at TEXT NOT NULL,
          lease_until TEXT NOT NULL
        ) WITHOUT ROWID;
      `);
    },
  },
];
