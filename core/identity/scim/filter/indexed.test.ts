import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../../../app.ts';
import { appPerTest, testBackends } from '../../../test-support/backends.ts';
import { migrations } from '../../../migrations.ts';
import { openDatabase } from '../../../store/db.ts';
import { createGroup } from '../groups.ts';
import { prepareFilter } from '../list.ts';
import { planIndexedFilter } from './indexed.ts';
import { parseFilter } from './parser.ts';
import { createUser, deleteUser, listUsers, patchUser } from '../users.ts';

const base = 'http://127.0.0.1/scim/v2';
const apps: App[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** mulberry32: a seeded generator, so a failing case is reproducible from the printed seed. */
const random = (seed: number) => {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  return { next, pick, chance: (p: number) => next() < p };
};
type Random = ReturnType<typeof random>;

// Small pools so that generated literals often match: mixed case, accents, prefixes of each other, empty strings.
const words = ['alice', 'Alice', 'ALICE', 'al', 'Émile', 'émile', 'bob', 'Bobby', 'zoë', '', 'ice', 'x-1', 'x-10', '日本'];
const types = ['work', 'Work', 'home', 'other'];
const dates = ['2024-01-01T00:00:00Z', '2024-01-01T00:00:00.000Z', '2024-06-30T12:00:00+02:00', '2025-03-01T00:00:00Z'];

const randomCase = (rng: Random, text: string): string =>
  [...text].map((char) => (rng.chance(0.5) ? char.toUpperCase() : char.toLowerCase())).join('');

const randomUser = (rng: Random, index: number): Record<string, unknown> => {
  const user: Record<string, unknown> = { userName: `user-${index}-${rng.pick(words)}` };
  if (rng.chance(0.7)) user['displayName'] = rng.pick(words);
  if (rng.chance(0.5)) user['title'] = rng.pick(words);
  if (rng.chance(0.5)) user['nickName'] = rng.pick(words);
  if (rng.chance(0.8)) user['active'] = rng.chance(0.5);
  if (rng.chance(0.5)) user['externalId'] = rng.pick(words);
  if (rng.chance(0.6))
    user['name'] = rng.chance(0.2) ? {} : { givenName: rng.pick(words), ...(rng.chance(0.5) ? { familyName: rng.pick(words) } : {}) };
  if (rng.chance(0.7)) {
    user['emails'] = Array.from({ length: Math.floor(rng.next() * 4) }, () => ({
      ...(rng.chance(0.9) ? { value: `${rng.pick(words)}@example.com` } : {}),
      ...(rng.chance(0.7) ? { type: rng.pick(types) } : {}),
      ...(rng.chance(0.3) ? { primary: rng.chance(0.5) } : {}),
    }));
  }
  if (rng.chance(0.4)) {
    user['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'] = {
      employeeNumber: rng.pick(words),
      ...(rng.chance(0.5) ? { manager: { value: rng.pick(words) } } : {}),
    };
  }
  return user;
};

const stringPaths = [
  'userName',
  'displayName',
  'title',
  'nickName',
  'externalId',
  'name.givenName',
  'name.familyName',
  'emails.value',
  'emails.type',
  'emails',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber',
  'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value',
  'id',
];
const stringOps = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];
const quote = (text: string): string => JSON.stringify(text);

const randomComparison = (rng: Random): string => {
  const roll = rng.next();
  if (roll < 0.08) return `${rng.pick([...stringPaths, 'name', 'active', 'meta.created'])} pr`;
  if (roll < 0.14) return `${rng.pick(stringPaths)} ${rng.pick(['eq', 'ne'])} null`;
  if (roll < 0.22) return `active ${rng.pick(['eq', 'ne'])} ${rng.pick(['true', 'false', '"True"'])}`;
  if (roll < 0.3) return `emails.primary eq ${rng.pick(['true', 'false'])}`;
  if (roll < 0.4) return `meta.${rng.pick(['created', 'lastModified'])} ${rng.pick(stringOps)} ${quote(rng.pick(dates))}`;
  const word = rng.pick(words);
  const literal = rng.chance(0.3) ? word.slice(0, Math.max(0, Math.floor(rng.next() * word.length))) : randomCase(rng, word);
  return `${rng.pick(stringPaths)} ${rng.pick(stringOps)} ${quote(literal)}`;
};

const randomElementFilter = (rng: Random, depth: number): string => {
  if (depth > 1 || rng.chance(0.5)) {
    return rng.pick([
      `type ${rng.pick(['eq', 'ne', 'sw'])} ${quote(randomCase(rng, rng.pick(types)))}`,
      `value ${rng.pick(['co', 'ew', 'eq'])} ${quote(rng.pick(words))}`,
      `primary eq ${rng.pick(['true', 'false'])}`,
      `${rng.pick(['type', 'value', 'primary'])} pr`,
    ]);
  }
  const left = randomElementFilter(rng, depth + 1);
  const right = randomElementFilter(rng, depth + 1);
  return rng.chance(0.3) ? `not (${left})` : `${left} ${rng.pick(['and', 'or'])} ${right}`;
};

const randomFilter = (rng: Random, depth: number): string => {
  if (depth > 2 || rng.chance(0.35)) {
    return rng.chance(0.15) ? `emails[${randomElementFilter(rng, 0)}]` : randomComparison(rng);
  }
  const left = randomFilter(rng, depth + 1);
  if (rng.chance(0.2)) return `not (${left})`;
  return `(${left}) ${rng.pick(['and', 'or'])} (${randomFilter(rng, depth + 1)})`;
};

let clock = Date.parse('2024-01-01T00:00:00Z');

describe.each(testBackends)('SCIM filters evaluated on the attribute index on $name', (backend) => {
  const t = appPerTest(backend, { now: () => new Date(clock) });

  const seeded = async (seed: number, count: number): Promise<App> => {
    const rng = random(seed);
    clock = Date.parse('2024-01-01T00:00:00Z');
    const { app } = t();
    for (let index = 0; index < count; index += 1) {
      clock += rng.chance(0.5) ? 0 : 86_400_000 * Math.floor(rng.next() * 200);
      await createUser(app, randomUser(rng, index), base);
    }
    return app;
  };

  const everyUser = async (app: App) => (await listUsers(app, { count: 100 }, base)).resources;
  const idsOf = async (app: App, filter: string) => (await listUsers(app, { filter }, base)).resources.map((user) => user['userName']);

  it('select exactly the users the in-process predicate selects, for 1,000 random filters', async () => {
    const seed = 20261122;
    const app = await seeded(seed, 90);
    const all = await everyUser(app);
    const rng = random(seed + 1);
    let compiled = 0;
    let nonEmpty = 0;
    for (let round = 0; round < 1000; round += 1) {
      const filter = randomFilter(rng, 0);
      const prepared = prepareFilter('User', filter);
      if (prepared?.indexed === undefined) throw new Error(`not planned on the index: ${filter}`);
      compiled += 1;
      const expected = all.filter((user) => prepared.predicate(user)).map((user) => user['id']);
      const page = await listUsers(app, { filter, count: 100 }, base);
      const actual = page.resources.map((user) => user['id']);
      expect({ filter, ids: actual, total: page.totalResults }).toEqual({ filter, ids: expected, total: expected.length });
      // The same users whether an `and` never narrows its second side to the first's users or always does
      // (every other round: on PostgreSQL each evaluation is a dozen round trips).
      const { uids } = await prepared.indexed(app.database, 0, Number.MAX_SAFE_INTEGER);
      for (const narrowTo of round % 2 === 0 ? [0, 1_000_000] : []) {
        const plan = planIndexedFilter(parseFilter(filter), { narrowTo });
        expect({ filter, narrowTo, uids: (await plan?.(app.database, 0, Number.MAX_SAFE_INTEGER))?.uids }).toEqual({
          filter,
          narrowTo,
          uids,
        });
        // A window (narrowTo 0: a value filter at the root counts and pages in SQL, element-scan.ts `window`).
        expect({ filter, narrowTo, window: await plan?.(app.database, 3, 5) }).toEqual({
          filter,
          narrowTo,
          window: { total: uids.length, uids: uids.slice(3, 8) },
        });
      }
      if (expected.length > 0 && expected.length < all.length) nonEmpty += 1;
    }
    // The generator must exercise selective filters, not only "all" or "none".
    expect(compiled).toBe(1000);
    expect(nonEmpty).toBeGreaterThan(300);
  }, 180_000);

  it('keeps the index current through PATCH and delete, and counts every match beyond the page', async () => {
    const app = await seeded(7, 0);
    for (let index = 0; index < 150; index += 1)
      await createUser(app, { userName: `u${index}`, title: index % 3 === 0 ? 'Engineer' : 'Analyst' }, base);
    const engineers = await listUsers(app, { filter: 'title eq "engineer"', count: 10 }, base);
    expect(engineers.totalResults).toBe(50);
    expect(engineers.resources).toHaveLength(10);
    const id = engineers.resources[0]?.['id'] as string;
    await patchUser(
      app,
      id,
      { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'title', value: 'Manager' }] },
      base,
    );
    expect((await listUsers(app, { filter: 'title eq "engineer"' }, base)).totalResults).toBe(49);
    expect((await listUsers(app, { filter: 'title eq "MANAGER"' }, base)).resources.map((user) => user['id'])).toEqual([id]);
    expect((await listUsers(app, { filter: 'title eq "Engineer"', startIndex: 45, count: 10 }, base)).resources).toHaveLength(5);
    await deleteUser(app, id);
    expect((await listUsers(app, { filter: 'title eq "MANAGER"' }, base)).totalResults).toBe(0);
  });

  it('takes LIKE metacharacters literally and keeps caseExact attributes exact (sw, ew, co)', async () => {
    const { app } = t();
    const names = ['50%off', '50xoff', 'a_b', 'axb', 'back\\slash', 'backXslash', 'Mixed', 'x😀é', 'é😀x'];
    for (const name of names) await createUser(app, { userName: name, externalId: name, title: name }, base);
    expect(await idsOf(app, 'userName sw "50%"')).toEqual(['50%off']);
    expect(await idsOf(app, 'title co "_"')).toEqual(['a_b']);
    expect(await idsOf(app, 'title ew "_b"')).toEqual(['a_b']);
    expect(await idsOf(app, 'title co "k\\\\s"')).toEqual(['back\\slash']);
    expect(await idsOf(app, 'title co "%"')).toEqual(['50%off']);
    // userName and title fold case; externalId is caseExact (RFC 7643), so "mixed" does not match "Mixed".
    expect(await idsOf(app, 'title sw "MIX"')).toEqual(['Mixed']);
    expect(await idsOf(app, 'externalId sw "mix"')).toEqual([]);
    expect(await idsOf(app, 'externalId co "ixe"')).toEqual(['Mixed']);
    expect(await idsOf(app, 'externalId ew "XED"')).toEqual([]);
    // ew reverses by code point on PostgreSQL (reverse() index): a surrogate pair stays one character.
    expect(await idsOf(app, 'title ew "😀É"')).toEqual(['x😀é']);
    expect(await idsOf(app, 'title sw "É😀"')).toEqual(['é😀x']);
    expect(await idsOf(app, 'title ew "😀"')).toEqual([]);
  });

  it('orders strings by code point and compares numbers and instants as such, whatever the collation', async () => {
    const { app } = t();
    for (const [name, title] of [
      ['a', 'Z'],
      ['b', 'a'],
      ['c', 'é'],
      ['d', 'e'],
    ] as const)
      await createUser(app, { userName: name, externalId: title }, base);
    // Code point order: 'Z' (U+005A) < 'a' < 'e' < 'é' (U+00E9); a locale collation would put 'é' before 'Z'.
    expect(await idsOf(app, 'externalId gt "Z"')).toEqual(['b', 'c', 'd']);
    expect(await idsOf(app, 'externalId lt "a"')).toEqual(['a']);
    expect(await idsOf(app, 'externalId ge "é"')).toEqual(['c']);
    expect(await idsOf(app, 'meta.created ge "2000-01-01T00:00:00+05:00"')).toEqual(['a', 'b', 'c', 'd']);
    expect(await idsOf(app, 'meta.created lt "2000-01-01T00:00:00Z"')).toEqual([]);
  });

  it('has the value indexes each dialect needs (PostgreSQL: code point collation, reversed strings for ew, pg_trgm GIN for co)', async () => {
    const { app } = t();
    const name = z.object({ name: z.string() });
    const indexes =
      backend.name === 'postgres'
        ? await app.database.all(name, `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'scim_user_attrs' ORDER BY 1`)
        : await app.database.all(
            name,
            `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'scim_user_attrs' AND sql IS NOT NULL ORDER BY 1`,
          );
    const expected =
      backend.name === 'postgres'
        ? ['scim_user_attrs_num', 'scim_user_attrs_rev', 'scim_user_attrs_str', 'scim_user_attrs_trgm']
        : ['scim_user_attrs_num', 'scim_user_attrs_str'];
    expect(indexes.map((row) => row.name).filter((index) => index !== 'scim_user_attrs_pkey')).toEqual(expected);
    if (backend.name === 'postgres') {
      // Collated by code point, as the leaf tests compare (leaf-sql.ts), whatever the database's locale.
      const definitions = await app.database.all(
        z.object({ def: z.string() }),
        `SELECT indexdef AS def FROM pg_indexes WHERE indexname IN ('scim_user_attrs_str', 'scim_user_attrs_rev') ORDER BY indexname`,
      );
      expect(definitions.map((row) => row.def.replace(/^.* USING /, ''))).toEqual([
        'btree (path, kind, reverse(str) COLLATE "C") INCLUDE (uid, elem, str)',
        'btree (path, kind, str COLLATE "C") INCLUDE (uid, elem)',
      ]);
    }
    await createUser(app, { userName: 'trigram', name: { familyName: 'Family9999' } }, base);
    expect(await idsOf(app, 'name.familyName co "AMILY99"')).toEqual(['trigram']);
    expect(await idsOf(app, 'name.familyName ew "y9999"')).toEqual(['trigram']);
  });

  it('falls back to in-process evaluation for attributes outside the index (groups)', async () => {
    const app = await seeded(8, 0);
    const member = await createUser(app, { userName: 'member' }, base);
    await createUser(app, { userName: 'outsider' }, base);
    const group = await createGroup(app, { displayName: 'Auditors', members: [{ value: member['id'] }] }, base);
    const prepared = prepareFilter('User', `groups.value eq "${group['id'] as string}"`);
    expect(prepared?.indexed).toBeUndefined();
    const page = await listUsers(app, { filter: `groups.value eq "${group['id'] as string}"` }, base);
    expect(page.resources.map((user) => user['userName'])).toEqual(['member']);
  });
});

describe('SCIM attribute index migration on SQLite', () => {
  it('backfills the index for users stored before the index existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-scim-index-'));
    dirs.push(dir);
    const file = join(dir, 'workbench.db');
    const before = openDatabase(
      file,
      // Every later SCIM migration builds on this index (006 and 007 backfill their rows from it, 008 and 009
      // change those), so they all come after it.
      migrations.filter((migration) => !migration.id.startsWith('scim/') || migration.id === 'scim/001-users-groups'),
    );
    before
      .prepare(
        `INSERT INTO scim_users (id, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at)
         VALUES ('scim-user-old', 'Old.Timer', 'old.timer', NULL, 1, '{"userName":"Old.Timer","title":"Veteran","active":true}', 1, '2023-01-01T00:00:00.000Z', '2023-01-01T00:00:00.000Z')`,
      )
      .run();
    before.close();
    const app = createApp({ dataDir: dir, env: {} });
    apps.push(app);
    expect((await listUsers(app, { filter: 'title sw "vet"' }, base)).resources.map((user) => user['id'])).toEqual(['scim-user-old']);
  });
});
