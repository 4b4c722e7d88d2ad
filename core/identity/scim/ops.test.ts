import { describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import type { Actor } from '../../ops/define.ts';
import { dispatch } from '../../ops/dispatch.ts';

const admin: Actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] };
const scimClient: Actor = { kind: 'apiKey', id: 'key-1', tier: 'api', scopes: ['scim'] };
const plain: Actor = { kind: 'apiKey', id: 'key-2', tier: 'api', scopes: [] };

describe.each(testBackends)('identity SCIM and SSO ops on $name', (backend) => {
  const t = appPerTest(backend);

  it('runs the Users & Groups flow through dispatch', async () => {
    const { app } = t();
    const call = (name: string, input: unknown, actor: Actor = admin) => dispatch(name, input, { app, actor });
    const created = await call('identity.scimCreateUser', {
      user_data: { userName: 'ops@x.test', emails: [{ value: 'ops@x.test', primary: true }] },
    });
    expect(created.ok).toBe(true);
    const user = (created as { value: { id: string } }).value;
    const group = ((await call('identity.scimCreateGroup', { group_data: { displayName: 'Admins' } })) as { value: { id: string } }).value;
    const joined = await call('identity.scimAddMember', { group_id: group.id, user_id: user.id });
    expect(joined).toMatchObject({ ok: true, value: { members: [{ value: user.id, display: 'ops@x.test' }] } });
    const listed = await call('identity.scimListUsers', { filter_str: 'emails[primary eq true]' }, scimClient);
    expect(listed).toMatchObject({ ok: true, value: { total_results: 1, start_index: 1, items_per_page: 1 } });
    const off = await call('identity.scimPatchUser', { user_id: user.id, patch_ops: [{ op: 'replace', path: 'active', value: false }] });
    expect(off).toMatchObject({ ok: true, value: { active: false, groups: [group.id] } });
    expect(await call('identity.scimRemoveMember', { group_id: group.id, user_id: user.id })).toMatchObject({
      ok: true,
      value: { members: [] },
    });
    expect(await call('identity.scimListGroups', {})).toMatchObject({ ok: true, value: { total_results: 1 } });
    expect(await call('identity.scimDeleteGroup', { group_id: group.id })).toMatchObject({ ok: true });
    expect(await call('identity.scimDeleteUser', { user_id: user.id })).toMatchObject({ ok: true });
    expect(await call('identity.scimGetUser', { user_id: user.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('maps bad input and missing grants to coded errors', async () => {
    const { app } = t();
    const call = (name: string, input: unknown, actor: Actor = admin) => dispatch(name, input, { app, actor });
    expect(await call('identity.scimListUsers', { filter_str: 'userName eq' })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await call('identity.scimListUsers', {}, plain)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await call('identity.ssoListSessions', {}, scimClient)).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await call('identity.scimGetUser', { user_id: 'nope' })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });

  it('delegates, lists and revokes SSO sessions', async () => {
    const { app } = t();
    const call = (name: string, input: unknown) => dispatch(name, input, { app, actor: admin });
    const session = await call('identity.ssoDelegateSession', { idp_session_id: 'idp-ops', subject: 'ops' });
    expect(session).toMatchObject({ ok: true, value: { project_id: 'default', email: '' } });
    expect(await call('identity.ssoListSessions', {})).toMatchObject({ ok: true, value: [{ idp_session_id: 'idp-ops' }] });
    expect(await call('identity.ssoRevokeIdpSession', { idp_session_id: 'idp-ops' })).toEqual({ ok: true, value: true });
    expect(await call('identity.ssoRevokeIdpSession', { idp_session_id: 'idp-ops' })).toEqual({ ok: true, value: false });
    expect(await call('identity.ssoListSessions', {})).toEqual({ ok: true, value: [] });
  });
});
