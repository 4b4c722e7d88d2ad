import type { PostgresMigration } from '../../store/postgres-migrate.ts';

/**
 * scim/002 moves data on SQLite (uid from rowid, the index rebuilt in JS), so it cannot be translated
 * (store/postgres-ddl.ts); on PostgreSQL, where no database held users before it, it is the DDL alone.
 */
export const scimPostgresMigrations: readonly PostgresMigration[] = [
  {
    id: 'scim/002-user-attribute-index',
    up: `
      ALTER TABLE scim_users ADD COLUMN uid BIGINT;
      CREATE UNIQUE INDEX scim_users_uid ON scim_users (uid);
      CREATE TABLE scim_user_attrs (
        uid BIGINT NOT NULL,
        path TEXT NOT NULL,
        elem BIGINT NOT NULL,
        kind TEXT NOT NULL,
        str TEXT,
        num DOUBLE PRECISION,
        PRIMARY KEY (uid, path, elem, kind)
      );
      CREATE INDEX scim_user_attrs_str ON scim_user_attrs (path, kind, str);
      CREATE INDEX scim_user_attrs_num ON scim_user_attrs (path, kind, num);
    `,
  },
  {
    // A filter leaf reads (uid, elem) of the rows its value index selects: INCLUDEd, they make it an index-only
    // scan (no heap visit per row once VACUUM has marked the pages all-visible; PostgreSQL 11+).
    id: 'scim/003-covering-attr-indexes',
    up: `
      DROP INDEX scim_user_attrs_str;
      DROP INDEX scim_user_attrs_num;
      CREATE INDEX scim_user_attrs_str ON scim_user_attrs (path, kind, str) INCLUDE (uid, elem);
      CREATE INDEX scim_user_attrs_num ON scim_user_attrs (path, kind, num) INCLUDE (uid, elem);
    `,
  },
];
