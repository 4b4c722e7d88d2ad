import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Queryable } from '../../../store/database.ts';
import { appPerTest, testBackends } from '../../../test-support/backends.ts';
import { enterpriseUserUrn, patchOpUrn } from '../schema.ts';
import { recording } from '../test/recording.ts';
import { backfillAgain, expectBroadPlanAnswer, userNamesOf } from '../test/rows.ts';
import { createUser, deleteUser, listUsers, patchUser } from '../users.ts';
import { planIndexedFilter } from './indexed.ts';
import { parseFilter } from './parser.ts';
import { backfillSingleRowsSql, singleSqlColumns } from './single-rows.ts';

const base = 'http://127.0.0.1/scim/v2';

const singleRow = z.object({ uid: z.number() }).catchall(z.union([z.string(), z.number()]).nullable());
const singleRows = (db: Queryable) => db.all(singleRow, `SELECT uid, ${singleSqlColumns.join(', ')} FROM scim_user_singles ORDER BY uid`);

const users = [
  { userName: 'Ada', title: 'Engineer', active: true, name: { givenName: 'Ada', familyName: 'Lovelace' }, externalId: 'X-1' },
  { userName: 'bob', title: '', active: false, emails: [{ value: 'b@x.test' }], [enterpriseUserUrn]: { department: 'Ops' } },
  { userName: 'cy', nickName: 'Cy', [enterpriseUserUrn]: { manager: { value: 'ada-id' } } },
  { userName: 'dee' },
];

describe.each(testBackends)('SCIM single-valued rows on $name', (backend) => {
  const t = appPerTest(backend, { now: () => new Date('2024-05-01T10:00:00Z') });

  it('are what the backfill derives from the attribute index, through create, PATCH and delete', async () => {
    const { app } = t();
    const ids: string[] = [];
    for (const user of users) ids.push((await createUser(app, user, base))['id'] as string);
    await patchUser(
      app,
      ids[0] as string,
      {
        schemas: [patchOpUrn],
        Operations: [
          { op: 'replace', path: 'title', value: 'Manager' },
          { op: 'remove', path: 'name.givenName' },
        ],
      },
      base,
    );
    await patchUser(
      app,
      ids[1] as string,
      { schemas: [patchOpUrn], Operations: [{ op: 'add', path: 'displayName', value: 'Bob B' }] },
      base,
    );
    await deleteUser(app, ids[2] as string);
    const written = await singleRows(app.database);
    expect(
      written.map((row) => [row['c_username'], row['c_title'], row['c_active'], row['c_name_givenname'], row['c_displayname']]),
    ).toEqual([
      ['ada', 'manager', 'true', null, null],
      ['bob', '', 'false', null, 'bob b'],
      ['dee', null, 'true', null, null],
    ]);
    // caseExact attributes keep their case; a dateTime holds its text and its instant; the extension has columns.
    expect(written[0]?.['c_externalid']).toBe('X-1');
    expect(written[0]?.['c_meta_created']).toBe('2024-05-01T10:00:00.000Z');
    expect(written[0]?.['c_meta_created_ms']).toBe(Date.parse('2024-05-01T10:00:00Z'));
    expect(written[1]?.['x_department']).toBe('ops');
    await backfillAgain(app.database, 'scim_user_singles', backfillSingleRowsSql);
    expect(await singleRows(app.database)).toEqual(written);
  });

  it('answer a broad root-scope condition in one scan (count and page), missing attributes failing each test', async () => {
    const { app } = t();
    for (const user of users) await createUser(app, user, base);
    const cases: [string, string[]][] = [
      ['not (title eq "engineer") and active eq true', ['cy', 'dee']],
      ['title pr or nickName pr', ['Ada', 'cy']],
      ['title eq null and not (userName ew "EE")', ['bob', 'cy']],
      ['not (title ne "Engineer")', ['Ada']],
      ['meta.created ge "2024-05-01T12:00:00+02:00" and externalId sw "X-"', ['Ada']],
      ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager.value eq "ada-id" or name.familyName co "LACE"', ['Ada', 'cy']],
    ];
    for (const [filter, expected] of cases) {
      // narrowTo 0: every node counts as broad, so the single-valued rows answer.
      const { db, sql } = recording(app.database);
      await expectBroadPlanAnswer(app.database, filter, expected, db);
      // The count and the page, each one statement over the rows; the index is only probed.
      expect({ filter, scans: sql.filter((text) => text.includes('scim_user_singles')).length }).toEqual({ filter, scans: 2 });
      expect({ filter, index: sql.filter((text) => text.includes('scim_user_attrs') && !text.includes(') AS probe')) }).toEqual({
        filter,
        index: [],
      });
      expect((await listUsers(app, { filter }, base)).resources.map((user) => user['userName'])).toEqual(expected);
    }
  });

  it('count a lone broad leaf on its index range and page it on the rows', async () => {
    const { app } = t();
    for (const user of users) await createUser(app, user, base);
    const { db, sql } = recording(app.database);
    const window = await planIndexedFilter(parseFilter('active eq true'), { narrowTo: 0 })?.(db, 1, 1);
    expect(window?.total).toBe(3);
    expect(sql.filter((text) => text.startsWith('SELECT COUNT(*) AS n FROM scim_user_attrs'))).toHaveLength(1);
    expect(sql.filter((text) => text.includes('scim_user_singles'))).toHaveLength(1);
    expect(await userNamesOf(app.database, window?.uids ?? [])).toEqual(['cy']);
  });
});
