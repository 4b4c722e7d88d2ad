import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/**
 * PostgreSQL's spelling of scim/migrations.ts. scim/002 adds the `uid` column and the attribute index without
 * SQLite's backfill from rowid: no PostgreSQL database held users before it.
 */
export const scimPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'scim/001-users-groups',
    up: `
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
    `,
  },
  {
    id: 'scim/002-user-attribute-index',
    up: `
      ALTER TABLE scim_users ADD COLUMN uid BIGINT;
      CREATE UNIQUE INDEX scim_users_uid ON scim_users (uid);
      CREATE TABLE scim_user_attrs (
        uid BIGINT NOT NULL,
        path TEXT NOT NULL,
        elem INTEGER NOT NULL,
        kind TEXT NOT NULL,
        str TEXT,
        num DOUBLE PRECISION,
        PRIMARY KEY (uid, path, elem, kind)
      );
      CREATE INDEX scim_user_attrs_str ON scim_user_attrs (path, kind, str);
      CREATE INDEX scim_user_attrs_num ON scim_user_attrs (path, kind, num);
    `,
  },
];
