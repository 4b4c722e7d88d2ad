import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
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
import { getUser, patchUser } from './users.ts';

const run = promisify(execFile);
const apps: App[] = [];
const dirs: string[] = [];
const memoryApp = (): App => {
  const app = createApp({ dataDir: ':memory:' });
  apps.push(app);
  return app;
};
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const errorOf = (work: () => unknown): { code: string | undefined; scimType: string | undefined } => {
  try {
    work();
  } catch (error) {
    return { code: (error as { code?: string }).code, scimType: scimTypeOf(error) };
  }
  return { code: undefined, scimType: undefined };
};

describe('SCIM users and groups (SDK over SQLite)', () => {
  it('creates users with spec ids and records, and survives a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scim-'));
    dirs.push(dir);
    const first = createApp({ dataDir: dir });
    const user = scimCreateUser(first, { userName: 'alice', displayName: 'Alice', emails: [{ value: 'a@x.test', primary: true }] });
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
    expect(scimGetUser(second, user.id)).toEqual(user);
  });

  it('keeps userName unique regardless of case (uniqueness, 409)', () => {
    const app = memoryApp();
    scimCreateUser(app, { userName: 'Émile@Example.com' });
    expect(errorOf(() => scimCreateUser(app, { userName: 'émile@example.COM' }))).toEqual({ code: 'CONFLICT', scimType: 'uniqueness' });
    const other = scimCreateUser(app, { userName: 'other' });
    expect(errorOf(() => scimPatchUser(app, other.id, [{ op: 'replace', path: 'userName', value: 'ÉMILE@example.com' }])).scimType).toBe(
      'uniqueness',
    );
  });

  it('lists with filters, 1-based paging and a page size capped at 100', () => {
    const app = memoryApp();
    for (let index = 0; index < 120; index += 1)
      scimCreateUser(app, { userName: `user${String(index).padStart(3, '0')}`, active: index % 2 === 0 });
    const page = scimListUsers(app, '', 101, 500);
    expect(page).toMatchObject({ total_results: 120, start_index: 101, items_per_page: 20 });
    expect(page.resources[0]?.user_name).toBe('user100');
    expect(scimListUsers(app, '', 1, 1000).items_per_page).toBe(100);
    expect(scimListUsers(app, '', 0, 0)).toMatchObject({ total_results: 120, start_index: 1, items_per_page: 0 });
    expect(scimListUsers(app, 'userName eq "USER007"').resources.map((user) => user.user_name)).toEqual(['user007']);
    expect(scimListUsers(app, 'active eq false and userName sw "user11"').total_results).toBe(5);
    expect(errorOf(() => scimListUsers(app, 'userName eq')).scimType).toBe('invalidFilter');
  });

  it('deactivates and reactivates through PATCH; deactivation revokes sessions and API keys', async () => {
    const app = memoryApp();
    const user = scimCreateUser(app, { userName: 'bob' });
    const session = delegateSession(app, { idp_session_id: 'idp-1', subject: 'BOB', email: 'bob@x.test', project_id: 'p' });
    await createApiKey(app, { name: 'bob key', tier: 'api', owner_user_id: user.id });
    const off = scimPatchUser(app, user.id, [{ op: 'replace', path: 'active', value: false }]);
    expect(off.active).toBe(false);
    expect(errorOf(() => getSession(app, session.session_id)).code).toBe('UNAUTHENTICATED');
    expect((await listApiKeys(app)).find((key) => key.owner_user_id === user.id)?.status).toBe('revoked');
    expect(errorOf(() => delegateSession(app, { idp_session_id: 'idp-2', subject: 'bob', email: '', project_id: 'p' })).code).toBe(
      'FORBIDDEN',
    );
    expect(scimPatchUser(app, user.id, [{ op: 'replace', path: 'active', value: true }]).active).toBe(true);
  });

  it('deleting a user revokes their sessions; deleting a group keeps its users', () => {
    const app = memoryApp();
    const user = scimCreateUser(app, { userName: 'carol' });
    const group = scimCreateGroup(app, { displayName: 'Ops', members: [{ value: user.id }] });
    expect(group.id).toMatch(/^scim-group-/);
    expect(group.members).toEqual([{ value: user.id, display: 'carol' }]);
    expect(scimGetUser(app, user.id).groups).toEqual([group.id]);
    scimDeleteGroup(app, group.id);
    expect(scimGetUser(app, user.id).groups).toEqual([]);
    const session = delegateSession(app, { idp_session_id: 'idp-c', subject: 'carol', email: '', project_id: 'default' });
    scimDeleteUser(app, user.id);
    expect(errorOf(() => getSession(app, session.session_id)).code).toBe('UNAUTHENTICATED');
    expect(errorOf(() => scimGetUser(app, user.id)).code).toBe('NOT_FOUND');
    expect(errorOf(() => scimDeleteUser(app, user.id)).code).toBe('NOT_FOUND');
    expect(errorOf(() => scimDeleteGroup(app, group.id)).code).toBe('NOT_FOUND');
  });

  it('patches group membership and rejects unknown members without writing anything', () => {
    const app = memoryApp();
    const [a, b] = [scimCreateUser(app, { userName: 'a' }), scimCreateUser(app, { userName: 'b' })];
    const group = scimCreateGroup(app, { displayName: 'Team' });
    scimPatchGroup(app, group.id, [{ op: 'add', path: 'members', value: [{ value: a.id }, { value: b.id }] }]);
    expect(scimGetGroup(app, group.id).members.map((member) => member.value)).toEqual([a.id, b.id]);
    scimPatchGroup(app, group.id, [{ op: 'remove', path: `members[value eq "${a.id}"]` }]);
    expect(scimGetGroup(app, group.id).members.map((member) => member.value)).toEqual([b.id]);
    const failed = errorOf(() =>
      scimPatchGroup(app, group.id, [
        { op: 'replace', path: 'displayName', value: 'Renamed' },
        { op: 'add', path: 'members', value: [{ value: 'scim-user-unknown' }] },
      ]),
    );
    expect(failed.scimType).toBe('invalidValue');
    expect(scimGetGroup(app, group.id).display_name).toBe('Team');
    expect(scimListGroups(app).total_results).toBe(1);
  });

  it('moves the version on each change, not on a no-op, and honours If-Match', () => {
    const app = memoryApp();
    const { id } = scimCreateUser(app, { userName: 'dave' });
    const base = 'http://x/scim/v2';
    patchUser(app, id, [{ op: 'replace', path: 'title', value: 'A' }], base);
    patchUser(app, id, [{ op: 'replace', path: 'title', value: 'A' }], base);
    expect((getUser(app, id, base)['meta'] as { version: string }).version).toBe('W/"2"');
    expect(errorOf(() => patchUser(app, id, [{ op: 'replace', path: 'title', value: 'B' }], base, 'W/"1"')).code).toBe('CONFLICT');
    patchUser(app, id, [{ op: 'replace', path: 'title', value: 'B' }], base, 'W/"2"');
  });

  it('never loses or duplicates writes from concurrent processes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'scim-race-'));
    dirs.push(dir);
    const setup = createApp({ dataDir: dir });
    const target = scimCreateUser(setup, { userName: 'target' });
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
    const after = getUser(check, target.id, 'http://x/scim/v2');
    expect((after['emails'] as unknown[]).length).toBe(workers * perWorker);
    expect((after['meta'] as { version: string }).version).toBe(`W/"${1 + workers * perWorker}"`);
    expect(scimListUsers(check, 'userName eq "shared.name@example.com"').total_results).toBe(1);
  });
});
