import { toPostgresDdl } from '../../store/postgres-ddl.ts';
import type { PostgresMigration } from '../../store/postgres-migrate.ts';
import { reorderSingleRowsSql } from './filter/single-rows.ts';

/**
 * scim/002 moves data on SQLite (uid from rowid, the index rebuilt in JS), so it cannot be translated
 * (store/postgres-ddl.ts); on PostgreSQL, where no database held users before it, it is the DDL alone.
 */
/** Indexes only PostgreSQL has (SQLite has no trigram index; its scans of the narrow value index suffice). */
export const scimPostgresOnlyIndexes: readonly string[] = ['scim_user_attrs_rev', 'scim_user_attrs_trgm'];

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
  {
    // `co` and `ew` cannot use a btree: with pg_trgm (in Debian's postgresql package, a trusted extension since
    // PostgreSQL 13) a GIN trigram index answers selective ones (familyName co: 134 ms -> 1.4 ms at 100k users,
    // loaded machine); the planner still picks the btree scan for broad patterns. A role that may not create
    // the extension gets the scans, with a notice, rather than a failed start.
    id: 'scim/004-trigram-index',
    up: `
      DO $$
      BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
      EXCEPTION WHEN OTHERS THEN
        RAISE NOTICE 'pg_trgm unavailable (%): SCIM co/ew filters scan their attribute', SQLERRM;
      END $$;
      DO $$
      DECLARE
        schema_name TEXT;
      BEGIN
        SELECT n.nspname INTO schema_name FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
        IF schema_name IS NOT NULL THEN
          EXECUTE format('CREATE INDEX scim_user_attrs_trgm ON scim_user_attrs USING gin (str %I.gin_trgm_ops)', schema_name);
        END IF;
      END $$;
    `,
  },
  {
    // Strings compare by code point (filter/leaf-sql.ts): under COLLATE "C" the value index serves equality,
    // order (gt/lt: a scan before) and constant-prefix LIKE (sw) in any database locale; the reversed-string
    // index makes `ew` a prefix range too (the trigram index's estimates for common trigrams are far off, and an
    // `ew` matching 10% of 100k users took 650 ms through it). It INCLUDEs str too: PostgreSQL plans an
    // index-only scan only when every column the query names is in the index (10k heap fetches otherwise).
    // Cost: one more index entry per attribute value.
    id: 'scim/005-code-point-attr-indexes',
    up: `
      DROP INDEX scim_user_attrs_str;
      CREATE INDEX scim_user_attrs_str ON scim_user_attrs (path, kind, str COLLATE "C") INCLUDE (uid, elem);
      CREATE INDEX scim_user_attrs_rev ON scim_user_attrs (path, kind, (reverse(str)) COLLATE "C") INCLUDE (uid, elem, str);
    `,
  },
  {
    // The translated statements (filter/single-rows.ts), then the primary key's index gets its usual name back
    // (CREATE TABLE named it after scim_user_singles_next).
    id: 'scim/008-single-rows-scan-order',
    up: `${toPostgresDdl(reorderSingleRowsSql)};
      ALTER INDEX scim_user_singles_next_pkey RENAME TO scim_user_singles_pkey;`,
  },
];
