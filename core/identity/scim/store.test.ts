import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { createApiKey, listApiKeys } from '../api-keys/service.ts';
import { delegateSession, getSession } from '../sso/sessions.ts';
import { scimTypeOf } from './errors.ts';
import {
  scimCreateGroup,
  scimCreateUser,
  scimDeleteGroup,
  scimDeleteUser,
  scimGetGroup,
  scimGetUser,
  scimListGroups,
  scimListUsers,
  scimPatchGroup,
  scimPatchUser,
} from './service.ts';
import { recording } from './test/recording.ts';
import { createUser, getUser, listUsers, patchUser } from './users.ts';

const run = promisify(execFile);
const baseUrl = 'http://127.0.0.1/scim/v2';
const apps: App[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const errorOf = async (work: () => Promise<unknown>): Promise<{ code: string | undefined; scimType: string | undefined }> => {
  try {
    await work();
  } catch (error) {
    return { code: (error as { code?: string }).code, scimType: scimTypeOf(error) };
  }
  return { code: undefined, scimType: undefined };
};

describe.each(testBackends)('SCIM users and groups (SDK) on $name', (backend) => {
  const t = appPerTest(backend);

  it('keeps userName unique regardless of case (uniqueness, 409)', async () => {
    const { app } = t();
    await scimCreateUser(app, { userName: 'Émile@Example.com' });
    expect(await errorOf(() => scimCreateUser(app, { userName: 'émile@example.COM' }))).toEqual({
      code: 'CONFLICT',
      scimType: 'uniqueness',
    });
    const other = await scimCreateUser(app, { userName: 'other' });
    expect(
      (await errorOf(() => scimPatchUser(app, other.id, [{ op: 'replace', path: 'userName', value: 'ÉMILE@example.com' }]))).scimType,
    ).toBe('uniqueness');
  });

  it('lists with filters, 1-based paging and a page size capped at 100', async () => {
    const { app } = t();
    for (let index = 0; index < 120; index += 1)
      await scimCreateUser(app, { userName: `user${String(index).padStart(3, '0')}`, active: index % 2 === 0 });
    const page = await scimListUsers(app, '', 101, 500);
    expect(page).toMatchObject({ total_results: 120, start_index: 101, items_per_page: 20 });
    expect(page.resources[0]?.user_name).toBe('user100');
    expect((await scimListUsers(app, '', 1, 1000)).items_per_page).toBe(100);
    expect(await scimListUsers(app, '', 0, 0)).toMatchObject({ total_results: 120, start_index: 1, items_per_page: 0 });
    expect((await scimListUsers(app, 'userName eq "USER007"')).resources.map((user) => user.user_name)).toEqual(['user007']);
    expect((await scimListUsers(app, 'active eq false and userName sw "user11"')).total_results).toBe(5);
    expect((await errorOf(() => scimListUsers(app, 'userName eq'))).scimType).toBe('invalidFilter');
  });

  it('answers an id or userName equality from its unique index, still checking the rest of the filter', async () => {
    const { app } = t();
    const ada = await createUser(
      app,
      { userName: 'Ada', title: 'Engineer', emails: [{ value: 'ada@example.com', type: 'work' }] },
      baseUrl,
    );
    await createUser(app, { userName: 'Bob', title: 'Engineer' }, baseUrl);
    const recorded = recording(app.database);
    // The same app reading through the recorder (the app's own getters, e.g. the SQLite-only `db`, left untouched).
    const spied: App = Object.create(app, { database: { value: { ...app.database, ...recorded.db } } });
    const names = async (filter: string): Promise<unknown[]> =>
      (await listUsers(spied, { filter }, baseUrl)).resources.map((user) => user['userName']);
    expect(await names('userName eq "ADA"')).toEqual(['Ada']);
    expect(await names(`id eq "${ada['id'] as string}" and emails[type eq "work"]`)).toEqual(['Ada']);
    expect(await names('title eq "Engineer" and userName eq "ada" and not (emails co "example")')).toEqual([]);
    expect(await names('userName eq "nobody"')).toEqual([]);
    // The user row and its group references: the attribute index (scim_user_attrs, MAX(uid)) is not read.
    expect(recorded.sql.filter((text) => /scim_user_attrs|scim_user_elems|MAX\(uid\)/.test(text))).toEqual([]);
    expect(recorded.sql.length).toBeLessThanOrEqual(4 * 2);
    // Other filters keep the index plan.
    expect(await names('title eq "Engineer"')).toEqual(['Ada', 'Bob']);
    expect(recorded.sql.some((text) => text.includes('scim_user_attrs'))).toBe(true);
  });

  it('deactivates and reactivates through PATCH; deactivation revokes sessions and API keys', async () => {
    const { app } = t();
    const user = await scimCreateUser(app, { userName: 'bob' });
    const session = await delegateSession(app, { idp_session_id: 'idp-1', subject: 'BOB', email: 'bob@x.test', project_id: 'p' });
    await createApiKey(app, { name: 'bob key', tier: 'api', owner_user_id: user.id });
    const off = await scimPatchUser(app, user.id, [{ op: 'replace', path: 'active', value: false }]);
    expect(off.active).toBe(false);
    expect((await errorOf(() => getSession(app, session.session_id))).code).toBe('UNAUTHENTICATED');
    expect((await listApiKeys(app)).find((key) => key.owner_user_id === user.id)?.status).toBe('revoked');
    expect((await errorOf(() => delegateSession(app, { idp_session_id: 'idp-2', subject: 'bob', email: '', project_id: 'p' }))).code).toBe(
      'FORBIDDEN',
    );
    expect((await scimPatchUser(app, user.id, [{ op: 'replace', path: 'active', value: true }])).active).toBe(true);
  });

  it('deleting a user revokes their sessions; deleting a group keeps its users', async () => {
    const { app } = t();
    const user = await scimCreateUser(app, { userName: 'carol' });
    const group = await scimCreateGroup(app, { displayName: 'Ops', members: [{ value: user.id }] });
    expect(group.id).toMatch(/^scim-group-/);
    expect(group.members).toEqual([{ value: user.id, display: 'carol' }]);
    expect((await scimGetUser(app, user.id)).groups).toEqual([group.id]);
    await scimDeleteGroup(app, group.id);
    expect((await scimGetUser(app, user.id)).groups).toEqual([]);
    const session = await delegateSession(app, { idp_session_id: 'idp-c', subject: 'carol', email: '', project_id: 'default' });
    await scimDeleteUser(app, user.id);
    expect((await errorOf(() => getSession(app, session.session_id))).code).toBe('UNAUTHENTICATED');
    expect((await errorOf(() => scimGetUser(app, user.id))).code).toBe('NOT_FOUND');
    expect((await errorOf(() => scimDeleteUser(app, user.id))).code).toBe('NOT_FOUND');
    expect((await errorOf(() => scimDeleteGroup(app, group.id))).code).toBe('NOT_FOUND');
  });

  it('patches group membership and rejects unknown members without writing anything', async () => {
    const { app } = t();
    const a = await scimCreateUser(app, { userName: 'a' });
    const b = await scimCreateUser(app, { userName: 'b' });
    const group = await scimCreateGroup(app, { displayName: 'Team' });
    await scimPatchGroup(app, group.id, [{ op: 'add', path: 'members', value: [{ value: a.id }, { value: b.id }] }]);
    expect((await scimGetGroup(app, group.id)).members.map((member) => member.value)).toEqual([a.id, b.id]);
    await scimPatchGroup(app, group.id, [{ op: 'remove', path: `members[value eq "${a.id}"]` }]);
    expect((await scimGetGroup(app, group.id)).members.map((member) => member.value)).toEqual([b.id]);
    const failed = await errorOf(() =>
      scimPatchGroup(app, group.id, [
        { op: 'replace', path: 'displayName', value: 'Renamed' },
        { op: 'add', path: 'members', value: [{ value: 'scim-user-unknown' }] },
      ]),
    );
    expect(failed.scimType).toBe('invalidValue');
    expect((await scimGetGroup(app, group.id)).display_name).toBe('Team');
    expect((await scimListGroups(app)).total_results).toBe(1);
  });

  it('moves the version on each change, not on a no-op, and honours If-Match', async () => {
    const { app } = t();
    const { id } = await scimCreateUser(app, { userName: 'dave' });
    const base = 'http://x/scim/v2';
    await patchUser(app, id, [{ op: 'replace', path: 'title', value: 'A' }], base);
    await patchUser(app, id, [{ op: 'replace', path: 'title', value: 'A' }], base);
    expect(((await getUser(app, id, base))['meta'] as { version: string }).version).toBe('W/"2"');
    expect((await errorOf(() => patchUser(app, id, [{ op: 'replace', path: 'title', value: 'B' }], base, 'W/"1"'))).code).toBe('CONFLICT');
    await patchUser(app, id, [{ op: 'replace', path: 'title', value: 'B' }], base, 'W/"2"');
  });
});

describe('SCIM users and groups on one SQLite file', () => {
  it('creates users with spec ids and records, and survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scim-'));
    dirs.push(dir);
    const first = createApp({ dataDir: dir });
    const user = await scimCreateUser(first, { userName: 'alice', displayName: 'Alice', emails: [{ value: 'a@x.test', primary: true }] });
    first.close();
    expect(user.id).toMatch(/^scim-user-[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(user).toMatchObject({
      user_name: 'alice',
      display_name: 'Alice',
      active: true,
      emails: [{ value: 'a@x.test', primary: true }],
      groups: [],
    });
    const second = createApp({ dataDir: dir });
    apps.push(second);
    expect(await scimGetUser(second, user.id)).toEqual(user);
  });

  it('never loses or duplicates writes from concurrent processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scim-race-'));
    dirs.push(dir);
    const setup = createApp({ dataDir: dir });
    const target = await scimCreateUser(setup, { userName: 'target' });
    setup.close();
    const workers = 4;
    const perWorker = 15;
    const script = join(import.meta.dirname, 'test', 'concurrent-writer.ts');
    const outputs = await Promise.all(
      Array.from({ length: workers }, (_, worker) =>
        run(process.execPath, ['--import', 'tsx', script, dir, target.id, String(worker), String(perWorker)], { timeout: 60_000 }),
      ),
    );
    const results = outputs.map((output) => JSON.parse(output.stdout) as { created: number; conflicts: number });
    expect(results.reduce((sum, result) => sum + result.created, 0)).toBe(1);
    expect(results.reduce((sum, result) => sum + result.conflicts, 0)).toBe(workers - 1);
    const check = createApp({ dataDir: dir });
    apps.push(check);
    const after = await getUser(check, target.id, 'http://x/scim/v2');
    expect((after['emails'] as unknown[]).length).toBe(workers * perWorker);
    expect((after['meta'] as { version: string }).version).toBe(`W/"${1 + workers * perWorker}"`);
    expect((await scimListUsers(check, 'userName eq "shared.name@example.com"')).total_results).toBe(1);
  });
});

describe.each(testBackends.filter((backend) => backend.name === 'postgres'))('SCIM on two instances on $name', (backend) => {
  const t = appPerTest(backend);

  it('concurrent creates on both instances get unique ids and uids; one userName wins, the others get 409 uniqueness', async () => {
    const first = t().app;
    const second = await t().second();
    const instances = [first, second];
    const distinct = Array.from({ length: 40 }, (_, index) => scimCreateUser(instances[index % 2] as App, { userName: `user${index}` }));
    const shared = Array.from({ length: 10 }, (_, index) =>
      errorOf(() => scimCreateUser(instances[index % 2] as App, { userName: index % 3 === 0 ? 'Shared' : 'SHARED' })),
    );
    const [created, outcomes] = await Promise.all([Promise.all(distinct), Promise.all(shared)]);
    expect(new Set(created.map((user) => user.id)).size).toBe(40);
    expect(outcomes.filter((outcome) => outcome.code === undefined)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.scimType === 'uniqueness')).toHaveLength(9);
    const uids = await first.database.all(z.object({ uid: z.number() }), 'SELECT uid FROM scim_users ORDER BY uid');
    expect(uids.map((row) => row.uid)).toEqual(Array.from({ length: 41 }, (_, index) => index + 1));
    for (const app of instances) {
      expect((await scimListUsers(app, '', 1, 0)).total_results).toBe(41);
      expect((await scimListUsers(app, 'userName eq "shared"')).total_results).toBe(1);
      expect((await scimListUsers(app, 'userName sw "USER1"')).total_results).toBe(11);
    }
  });

  it('concurrent PATCHes through both instances lose no write (row lock on the read)', async () => {
    const first = t().app;
    const second = await t().second();
    const target = await scimCreateUser(first, { userName: 'target' });
    const adds = Array.from({ length: 20 }, (_, index) =>
      scimPatchUser(index % 2 === 0 ? first : second, target.id, [
        { op: 'add', path: 'emails', value: [{ value: `e${index}@example.com` }] },
      ]),
    );
    await Promise.all(adds);
    const after = await getUser(second, target.id, 'http://x/scim/v2');
    expect((after['emails'] as unknown[]).length).toBe(20);
    expect((after['meta'] as { version: string }).version).toBe('W/"21"');
    expect((await scimListUsers(first, 'emails.value ew "9@example.com"')).total_results).toBe(1);
  });
});
