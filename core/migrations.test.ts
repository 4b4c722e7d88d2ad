import { describe, expect, it } from 'vitest';
import { migrationOrder, migrations, orderMigrations } from './migrations.ts';
import { type Db, type Migration, migrate, openDatabase } from './store/db.ts';

/** The order released databases applied; new migrations may only be appended after it. */
const released = (
  'foundation/001-settings audit/001-records cec/001-bundles dpa/001-documents api-keys/001-api-keys scim/001-users-groups ' +
  'sso/001-sessions saml/001-config-requests-replay oidc/001-pending-logins pii/001-state'
).split(' ');

const schemaOf = (db: Db): unknown[] =>
  db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all();
const appliedOf = (db: Db): string[] =>
  (db.prepare('SELECT id FROM schema_migrations ORDER BY rowid').all() as { id: string }[]).map((row) => row.id);

describe('migrations', () => {
  it('apply in one pinned global order: released ids first, in their order, new ones only appended', () => {
    expect(migrationOrder.slice(0, released.length)).toEqual(released);
    expect(migrations.map((m) => m.id)).toEqual(migrationOrder);
  });

  it('a fresh database and one upgraded from every earlier release end with the same schema', () => {
    const fresh = openDatabase(':memory:', migrations);
    const expected = schemaOf(fresh);
    expect(expected.length).toBeGreaterThan(10);
    expect(appliedOf(fresh)).toEqual(migrationOrder);
    fresh.close();
    for (let release = 0; release < migrations.length; release++) {
      const db = openDatabase(':memory:', migrations.slice(0, release));
      migrate(db, migrations);
      expect(schemaOf(db), `upgraded from the release with ${release} migrations`).toEqual(expected);
      expect(appliedOf(db)).toEqual(migrationOrder);
      db.close();
    }
  });

  it('the global order decides, not the domain: a later migration of one domain runs after another domain first', () => {
    const create = (id: string, sql: string): Migration => ({ id, up: (db) => db.exec(sql) });
    const a1 = create('a/001', 'CREATE TABLE t (x)');
    const b1 = create('b/001', 'CREATE TABLE log AS SELECT * FROM t');
    const a2 = create('a/002', 'ALTER TABLE t ADD COLUMN y');
    const ordered = orderMigrations(['a/001', 'b/001', 'a/002'], [a1, a2, b1]);
    expect(ordered.map((m) => m.id)).toEqual(['a/001', 'b/001', 'a/002']);
    const db = openDatabase(':memory:', ordered);
    // b/001 copied t before a/002 added y, as on a database upgraded through both releases.
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'log'").pluck().get()).not.toContain('y');
    db.close();
  });

  it('refuses a migration missing from the order, an id no domain defines, and duplicates', () => {
    const m = (id: string): Migration => ({ id, up: () => {} });
    expect(() => orderMigrations(['a/001'], [m('a/001'), m('a/002')])).toThrow(/not in core\/migrations.ts migrationOrder: a\/002/);
    expect(() => orderMigrations(['a/001', 'a/002'], [m('a/001')])).toThrow(/names a\/002, which no domain defines/);
    expect(() => orderMigrations(['a/001', 'a/001'], [m('a/001')])).toThrow(/lists a\/001 twice/);
    expect(() => orderMigrations(['a/001'], [m('a/001'), m('a/001')])).toThrow(/defined twice/);
  });
});
