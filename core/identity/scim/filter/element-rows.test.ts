import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { z } from 'zod';
import { createApp } from '../../../app.ts';
import { migrations } from '../../../migrations.ts';
import type { Queryable } from '../../../store/database.ts';
import { openDatabase } from '../../../store/db.ts';
import { appPerTest, testBackends } from '../../../test-support/backends.ts';
import { patchOpUrn } from '../schema.ts';
import { recording } from '../test/recording.ts';
import { backfillAgain, expectBroadPlanAnswer, userNamesOf } from '../test/rows.ts';
import { createUser, deleteUser, listUsers, patchUser } from '../users.ts';
import { backfillElementRowsSql, elementColumn, elementColumnNames } from './element-rows.ts';
import { planIndexedFilter } from './indexed.ts';
import { parseFilter } from './parser.ts';

const base = 'http://127.0.0.1/scim/v2';

const elementRow = z.object({ path: z.string(), uid: z.number(), elem: z.number() }).catchall(z.string().nullable());
const columns = elementColumnNames.map(elementColumn).join(', ');
const elementRows = (db: Queryable) =>
  db.all(elementRow, `SELECT path, uid, elem, ${columns} FROM scim_user_elems ORDER BY path, uid, elem`);

const users = [
  { userName: 'a', emails: [{ value: 'A@Example.com', type: 'Work', primary: true }, { value: 'a@home.test' }] },
  { userName: 'b', emails: [{}, { type: 'work' }, { value: '', type: 'home' }] },
  { userName: 'c', addresses: [{ locality: 'Zürich', country: 'CH', type: 'work' }], roles: [{ value: 'admin' }] },
  { userName: 'd' },
];

describe.each(testBackends)('SCIM element rows on $name', (backend) => {
  const t = appPerTest(backend);

  it('are what the backfill derives from the attribute index, through create, PATCH and delete', async () => {
    const { app } = t();
    const ids: string[] = [];
    for (const user of users) ids.push((await createUser(app, user, base))['id'] as string);
    await patchUser(
      app,
      ids[0] as string,
      { schemas: [patchOpUrn], Operations: [{ op: 'add', path: 'emails', value: [{ value: 'third@x.test', type: 'other' }] }] },
      base,
    );
    await patchUser(app, ids[1] as string, { schemas: [patchOpUrn], Operations: [{ op: 'remove', path: 'emails[type eq "home"]' }] }, base);
    await deleteUser(app, ids[2] as string);
    const written = await elementRows(app.database);
    expect(written.filter((row) => row.path === 'emails').map((row) => [row.elem, row['sub_value'], row['sub_type']])).toEqual([
      [0, 'a@example.com', 'work'],
      [1, 'a@home.test', null],
      [2, 'third@x.test', 'other'],
      [0, null, null],
      [1, null, 'work'],
    ]);
    expect(written.filter((row) => row.path !== 'emails')).toEqual([]);
    await backfillAgain(app.database, 'scim_user_elems', backfillElementRowsSql);
    expect(await elementRows(app.database)).toEqual(written);
  });

  it('answer a broad value filter with its whole condition in SQL (count and page), missing sub-attributes failing each test', async () => {
    const { app } = t();
    for (const user of users) await createUser(app, user, base);
    const cases: [string, string[]][] = [
      ['emails[type eq "work" and value co "example"]', ['a']],
      ['emails[not (type eq "work")]', ['a', 'b']],
      ['emails[value pr]', ['a']],
      ['emails[value eq null and type eq null]', ['b']],
      ['emails[primary eq true or type sw "WO"]', ['a', 'b']],
      ['emails[not (value ew ".com") and not (type pr)]', ['a', 'b']],
      ['addresses[locality eq "zürich" and country ne "DE"]', ['c']],
    ];
    for (const [filter, expected] of cases) {
      // narrowTo 0: every leaf counts as broad, so the element rows answer (the default plan reads the index).
      const { db, sql } = recording(app.database);
      const plan = planIndexedFilter(parseFilter(filter), { narrowTo: 0 });
      const uids = (await plan?.(db, 0, 100))?.uids ?? [];
      expect({ filter, users: await userNamesOf(app.database, uids) }).toEqual({ filter, users: expected });
      // The whole filter is the value filter: its count (the matching first elements, and the users matching only
      // through later ones) and its page, three statements over the element rows.
      expect({ filter, scans: sql.filter((text) => text.includes('scim_user_elems')).length }).toEqual({ filter, scans: 3 });
      expect((await listUsers(app, { filter }, base)).resources.map((user) => user['userName'])).toEqual(expected);
      // A user with two matching elements (`a` has two emails with a value) is counted once.
      expect({ filter, total: (await plan?.(db, 0, 0))?.total }).toEqual({ filter, total: expected.length });
    }
  });

  it('count each user once, also users matching only through a later element (LIKE metacharacters, caseExact)', async () => {
    const { app } = t();
    const later = [
      // Only the second and third elements match the filters below: the user counts through the later elements.
      {
        userName: 'later',
        emails: [
          { value: 'x@home.test', type: 'home' },
          { value: 'A%b_c\\d@Work.Test', type: 'WORK' },
          { value: 'a%b_c\\d@x.test', type: 'work' },
        ],
      },
      // The first element matches, and a later one too: counted once, through the first.
      {
        userName: 'both',
        emails: [
          { value: 'a%b_c\\d@first.test', type: 'Work' },
          { value: 'A%B_C\\D@second.test', type: 'work' },
        ],
      },
      // Lookalikes that LIKE would take if %, _ and \ were not escaped.
      {
        userName: 'lookalike',
        emails: [
          { value: 'home@x.test', type: 'home' },
          { value: 'aXbYc\\d@x.test', type: 'work' },
          { value: 'ab_cd@x.test', type: 'work' },
        ],
      },
      { userName: 'none', emails: [{ value: 'none@x.test', type: 'work' }] },
    ];
    for (const user of later) await createUser(app, user, base);
    const cases: [string, string[]][] = [
      ['emails[type eq "work" and value co "%b_c\\\\d"]', ['later', 'both']],
      ['emails[value sw "a%b_" and not (type eq "home")]', ['later', 'both']],
      ['emails[value ew "_c\\\\d@x.test" or value ew "D@SECOND.TEST"]', ['later', 'both']],
      ['emails[type eq "work" and not (value co "@x.test")]', ['later', 'both']],
      ['emails[type ne "home"]', ['later', 'both', 'lookalike', 'none']],
    ];
    for (const [filter, expected] of cases) {
      await expectBroadPlanAnswer(app.database, filter, expected);
      // The default plan (selective leaves through the attribute index) agrees, and so does the HTTP-facing list.
      expect({ filter, total: (await listUsers(app, { filter }, base)).totalResults }).toEqual({ filter, total: expected.length });
    }
  });
});

describe('SCIM element rows migration on SQLite', () => {
  it('backfills element rows for users stored before the attribute index existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-scim-elems-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'workbench.db');
    // Every SCIM migration after 001 builds on the attribute index (002) or on the rows backfilled from it.
    const before = openDatabase(
      file,
      migrations.filter((migration) => !migration.id.startsWith('scim/') || migration.id === 'scim/001-users-groups'),
    );
    before
      .prepare(
        `INSERT INTO scim_users (id, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at)
         VALUES ('scim-user-old', 'Old.Timer', 'old.timer', NULL, 1, ?, 1, '2023-01-01T00:00:00.000Z', '2023-01-01T00:00:00.000Z')`,
      )
      .run(JSON.stringify({ userName: 'Old.Timer', emails: [{ value: 'Old@Example.com', type: 'work' }], active: true }));
    before.close();
    const app = createApp({ dataDir: dir, env: {} });
    onTestFinished(() => app.close());
    const rows = await elementRows(app.database);
    expect(rows.map((row) => [row.path, row.elem, row['sub_value'], row['sub_type']])).toEqual([['emails', 0, 'old@example.com', 'work']]);
    const plan = planIndexedFilter(parseFilter('emails[type eq "WORK" and value sw "old@"]'), { narrowTo: 0 });
    expect((await plan?.(app.database, 0, Number.MAX_SAFE_INTEGER))?.uids).toEqual([rows[0]?.uid]);
    // scim/007 backfilled the single-valued row and scim/008 copied it into the table in scan order.
    const singles = planIndexedFilter(parseFilter('active eq true and userName sw "OLD." and not (title pr)'), { narrowTo: 0 });
    expect(await singles?.(app.database, 0, 10)).toEqual({ total: 1, uids: [rows[0]?.uid] });
  });
});
