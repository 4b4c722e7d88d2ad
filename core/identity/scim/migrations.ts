import type { Migration } from '../../store/db.ts';
import { createUserIndexTable, indexInsertSql, indexParams, indexRowsOf } from './filter/attr-index.ts';
import { createElementRows } from './filter/element-rows.ts';
import { createSingleRows, reorderSingleRows } from './filter/single-rows.ts';
import { type UserRow, userToWire } from './wire.ts';

/**
 * SCIM users and groups. A resource's writable attributes are one JSON document; the attributes that queries and
 * constraints need are columns. `user_name_key` is the userName folded to lower case (Unicode-aware, in JS), so
 * the UNIQUE index makes userName unique case-insensitively (RFC 7643 4.1.1: caseExact false) and serves
 * `userName eq "..."` look-ups.
 */
export const scimMigrations: readonly Migration[] = [
  {
    id: 'scim/001-users-groups',
    up: (db) =>
      db.exec(`
        CREATE TABLE scim_users (
          id TEXT PRIMARY KEY,
          user_name TEXT NOT NULL,
          user_name_key TEXT NOT NULL,
          external_id TEXT,
          active INTEGER NOT NULL,
          resource TEXT NOT NULL,
          version INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE UNIQUE INDEX scim_users_user_name_key ON scim_users (user_name_key);
        CREATE INDEX scim_users_external_id ON scim_users (external_id);
        CREATE TABLE scim_groups (
          id TEXT PRIMARY KEY,
          display_name TEXT NOT NULL,
          external_id TEXT,
          resource TEXT NOT NULL,
          version INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE INDEX scim_groups_external_id ON scim_groups (external_id);
        CREATE TABLE scim_group_members (
          group_id TEXT NOT NULL REFERENCES scim_groups (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES scim_users (id) ON DELETE CASCADE,
          PRIMARY KEY (group_id, user_id)
        );
        CREATE INDEX scim_group_members_user ON scim_group_members (user_id);
      `),
  },
  {
    // The attribute index behind SQL-evaluated filters (filter/sql.ts), backfilled from the stored users.
    id: 'scim/002-user-attribute-index',
    up: (db) => {
      createUserIndexTable(db);
      for (const row of db.prepare('SELECT * FROM scim_users').all() as UserRow[]) {
        const rows = indexRowsOf('User', userToWire(row, [], ''));
        for (const one of rows) db.prepare(indexInsertSql(1)).run(...indexParams(row.uid, [one]));
      }
    },
  },
  {
    // On SQLite the value indexes of the WITHOUT ROWID table already hold the primary key (uid, elem): every
    // filter leaf is an index-only scan. PostgreSQL needs them INCLUDEd (postgres-migrations.ts).
    id: 'scim/003-covering-attr-indexes',
    up: () => undefined,
  },
  {
    // PostgreSQL only (postgres-migrations.ts): a trigram index for `co`/`ew`; SQLite scans the narrow index.
    id: 'scim/004-trigram-index',
    up: () => undefined,
  },
  {
    // PostgreSQL only (postgres-migrations.ts): value indexes collated by code point, as SQLite's BINARY already is.
    id: 'scim/005-code-point-attr-indexes',
    up: () => undefined,
  },
  {
    // One row per element of a multi-valued complex attribute, backfilled from the attribute index in SQL (the
    // same statement on PostgreSQL): a broad value filter is one scan with its whole condition (filter/element-rows.ts).
    id: 'scim/006-user-element-rows',
    up: createElementRows,
  },
  {
    // One row per user with its single-valued attributes as columns, backfilled from the attribute index in SQL
    // (the same statement on PostgreSQL): a broad root-scope condition is one scan (filter/single-rows.ts).
    id: 'scim/007-user-single-rows',
    up: createSingleRows,
  },
  {
    // The single-valued rows' columns in scan order, rows copied (filter/single-rows.ts `scanOrderColumns`): a scan
    // decodes every column up to the last one it tests, and `active` was the 25th.
    id: 'scim/008-single-rows-scan-order',
    up: reorderSingleRows,
  },
  {
    // The element rows after each user's first (few in most directories): a broad value filter counts its users
    // as the matching first elements plus the users matching only through these (filter/row-scan.ts), instead of
    // COUNT(DISTINCT uid), which sorted every matching row.
    id: 'scim/009-later-element-rows-index',
    up: (db) => db.exec('CREATE INDEX scim_user_elems_later ON scim_user_elems (path, uid, elem) WHERE elem > 0'),
  },
];
