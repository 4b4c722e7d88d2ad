import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { scimPostgresOnlyIndexes } from '../identity/scim/postgres-migrations.ts';
import { migrationOrder, migrations, postgresMigrations } from '../migrations.ts';
import { freshPostgresUrl, postgresUnavailable } from '../test-support/postgres.ts';
import { type Db, openDatabase } from './db.ts';
import { postgresMigrationsOf, toPostgresDdl } from './postgres-ddl.ts';
import { migratePostgres } from './postgres-migrate.ts';
import { connectPostgres } from './postgres-database.ts';

/** What both schemas must agree on, per table: each column with its type family, nullability and key position. */
type Shape = Record<string, string[]>;

const sqliteFamily = (declared: string): string =>
  ({ TEXT: 'text', INTEGER: 'integer', REAL: 'real' })[declared.toUpperCase()] ?? `unknown:${declared}`;
const postgresFamily = (type: string): string =>
  ({ text: 'text', integer: 'integer', bigint: 'integer', 'double precision': 'real' })[type] ?? `unknown:${type}`;

const sqliteShape = (db: Db): { tables: Shape; indexes: string[] } => {
  const tables: Shape = {};
  const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  for (const table of names) {
    const columns = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; type: string; notnull: number; pk: number }[];
    // SQLite lets a non-integer PRIMARY KEY column hold NULL; PostgreSQL does not. Both refuse it in our code.
    tables[table] = columns.map((c) => `${c.name} ${sqliteFamily(c.type)} ${c.notnull || c.pk ? 'not null' : 'null'} pk${c.pk}`).sort();
  }
  const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").pluck().all() as string[];
  return { tables, indexes: indexes.sort() };
};

const postgresShape = async (pool: pg.Pool): Promise<{ tables: Shape; indexes: string[] }> => {
  const columns = await pool.query<{ table_name: string; column_name: string; data_type: string; is_nullable: string; pk: number }>(`
    SELECT c.table_name, c.column_name, c.data_type, c.is_nullable,
           COALESCE((SELECT k.ordinal_position FROM information_schema.table_constraints t
                     JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_name = t.table_name
                     WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_name = c.table_name AND k.column_name = c.column_name), 0) AS pk
    FROM information_schema.columns c WHERE c.table_schema = 'public'`);
  const tables: Shape = {};
  for (const c of columns.rows) {
    const list = tables[c.table_name] ?? [];
    list.push(`${c.column_name} ${postgresFamily(c.data_type)} ${c.is_nullable === 'NO' ? 'not null' : 'null'} pk${c.pk}`);
    tables[c.table_name] = list;
  }
  for (const list of Object.values(tables)) list.sort();
  // Indexes we created by name; those behind PRIMARY KEY and UNIQUE constraints stand for SQLite's autoindexes.
  const indexes = await pool.query<{ name: string }>(`
    SELECT i.relname AS name FROM pg_index x
    JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
    WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`);
  return { tables, indexes: indexes.rows.map((r) => r.name).sort() };
};

describe('PostgreSQL spelling of the SQLite migrations', () => {
  it('translates types and SQLite-only clauses, and nothing inside names', () => {
    expect(toPostgresDdl('CREATE TABLE t (seq INTEGER NOT NULL, num REAL, integer_ish TEXT, PRIMARY KEY (seq)) WITHOUT ROWID')).toBe(
      'CREATE TABLE t (seq BIGINT NOT NULL, num DOUBLE PRECISION, integer_ish TEXT, PRIMARY KEY (seq))',
    );
    expect(toPostgresDdl('DELETE FROM main.audit_staging WHERE domain.x = 1')).toBe('DELETE FROM audit_staging WHERE domain.x = 1');
  });

  it('a migration that moves data needs its own spelling; a spelling without a migration is refused', () => {
    const moves = { id: 'a/001', up: (db: Db) => void db.prepare('SELECT 1').get() };
    expect(() => postgresMigrationsOf([moves], [])).toThrow(/a\/001 moves data: give its PostgreSQL spelling/);
    expect(postgresMigrationsOf([moves], [{ id: 'a/001', up: 'SELECT 1' }])).toEqual([{ id: 'a/001', up: 'SELECT 1' }]);
    expect(() => postgresMigrationsOf([], [{ id: 'b/001', up: 'SELECT 1' }])).toThrow(/b\/001, which no migration has/);
  });
});

describe.skipIf(postgresUnavailable !== undefined)('PostgreSQL schema', () => {
  let url: string;
  let pools: pg.Pool[] = [];
  const pool = async (): Promise<pg.Pool> => {
    const opened = await connectPostgres(url, { source: 'test database', max: 2 });
    pools.push(opened);
    return opened;
  };
  beforeAll(async () => {
    url = await freshPostgresUrl();
  });
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
    pools = [];
  });

  it('has every table, column (type family, nullability, key) and index of the SQLite schema, from the same migration ids', async () => {
    expect(postgresMigrations().map((m) => m.id)).toEqual(migrationOrder);
    const sqlite = openDatabase(':memory:', migrations);
    const expected = sqliteShape(sqlite);
    sqlite.close();
    const first = await pool();
    await migratePostgres(first, postgresMigrations());
    const actual = await postgresShape(first);
    expect(Object.keys(expected.tables).length).toBeGreaterThan(15);
    expect(actual.tables).toEqual(expected.tables);
    expect(actual.indexes).toEqual([...expected.indexes, ...scimPostgresOnlyIndexes].sort());
  });

  it('several instances starting together on a fresh database apply each migration exactly once', async () => {
    const fresh = await freshPostgresUrl();
    const instances = await Promise.all(Array.from({ length: 4 }, () => connectPostgres(fresh, { source: 'test database', max: 2 })));
    pools.push(...instances);
    const applied = await Promise.all(instances.map((instance) => migratePostgres(instance, postgresMigrations())));
    // One instance did the work, the others found it done; none failed on "relation already exists".
    expect(applied.flat().sort()).toEqual([...migrationOrder].sort());
    expect(applied.filter((ids) => ids.length > 0)).toHaveLength(1);
    const rows = await (instances[0] as pg.Pool).query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY applied_at, id');
    expect(rows.rows.map((r) => r.id).sort()).toEqual([...migrationOrder].sort());
    // Starting again later applies nothing.
    expect(await migratePostgres(instances[1] as pg.Pool, postgresMigrations())).toEqual([]);
  });

  it('a migration that fails rolls back whole, names its id, and releases the lock for the next start', async () => {
    const fresh = await freshPostgresUrl();
    const broken = [
      ...postgresMigrations().slice(0, 2),
      { id: 'test/999-broken', up: 'CREATE TABLE half_done (x TEXT); SELECT no_such_function()' },
    ];
    const database = await connectPostgres(fresh, { source: 'test database', max: 2 });
    pools.push(database);
    await expect(migratePostgres(database, broken)).rejects.toThrow(/test\/999-broken failed: .*no_such_function/);
    const half = await database.query("SELECT to_regclass('public.half_done') AS t");
    expect(half.rows[0]).toEqual({ t: null });
    // Not stuck behind the failed run's lock: a fixed list applies.
    expect(await migratePostgres(database, postgresMigrations())).toEqual(migrationOrder.slice(2));
  });
});
