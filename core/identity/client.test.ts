import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { SFIdentityError } from '../errors.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { SFIdentityClient, sfIdentity } from './client.ts';

let app: App | undefined;
afterEach(() => {
  app?.close();
  app = undefined;
});

const rejection = async (work: () => Promise<unknown>): Promise<unknown> => {
  try {
    await work();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe.each(testBackends)('SFIdentityClient SCIM and SSO (spec 4.4; Promises, docs/decisions.md) on $name', (backend) => {
  const t = appPerTest(backend);

  it('runs the SCIM operations with spec records and SFIdentityError', async () => {
    const client = new SFIdentityClient(t().app);
    const user = await client.scimCreateUser({
      userName: 'sdk@x.test',
      displayName: 'SDK User',
      emails: [{ value: 'sdk@x.test', primary: true }],
    });
    expect(user).toMatchObject({
      user_name: 'sdk@x.test',
      display_name: 'SDK User',
      active: true,
      emails: [{ value: 'sdk@x.test', primary: true }],
    });
    expect(await rejection(() => client.scimCreateUser({ userName: 'SDK@x.test' }))).toBeInstanceOf(SFIdentityError);
    expect(await client.scimGetUser(user.id)).toEqual(user);
    expect(await rejection(() => client.scimGetUser('scim-user-none'))).toBeInstanceOf(SFIdentityError);
    expect(await client.scimListUsers()).toMatchObject({ total_results: 1, start_index: 1, items_per_page: 1 });
    expect((await client.scimListUsers('userName eq "nobody"')).resources).toEqual([]);
    expect((await client.scimPatchUser(user.id, [{ op: 'replace', path: 'active', value: false }])).active).toBe(false);
    expect((await client.scimPatchUser(user.id, [{ op: 'replace', path: 'active', value: true }])).active).toBe(true);
    const group = await client.scimCreateGroup({ displayName: 'Auditors', members: [{ value: user.id }] });
    expect(await client.scimListGroups()).toMatchObject({
      total_results: 1,
      resources: [{ id: group.id, members: [{ value: user.id, display: 'sdk@x.test' }] }],
    });
    await client.scimDeleteGroup(group.id);
    expect((await client.scimGetUser(user.id)).groups).toEqual([]);
    await client.scimDeleteUser(user.id);
    expect(await rejection(() => client.scimDeleteUser(user.id))).toBeInstanceOf(SFIdentityError);
  });

  it('delegates, reads and revokes SSO sessions; deleting the user revokes theirs', async () => {
    const client = new SFIdentityClient(t().app);
    const user = await client.scimCreateUser({ userName: 'sso-user' });
    const session = await client.ssoDelegateSession('idp-1', 'sso-user', 'u@x.test', 'proj');
    expect(await client.ssoGetSession(session.session_id)).toEqual(session);
    const later = await client.ssoDelegateSessionAsync('idp-2', 'sso-user');
    expect(later).toMatchObject({ email: '', project_id: 'default' });
    await client.scimDeleteUser(user.id);
    expect(await rejection(() => client.ssoGetSession(session.session_id))).toBeInstanceOf(SFIdentityError);
    expect(await rejection(() => client.ssoGetSession(later.session_id))).toBeInstanceOf(SFIdentityError);
    const free = await client.ssoDelegateSession('idp-3', 'someone-else', '', 'default');
    expect(await client.ssoRevokeIdpSession('idp-3')).toBe(true);
    expect(await client.ssoRevokeIdpSession('idp-3')).toBe(false);
    expect(await rejection(() => client.ssoGetSession(free.session_id))).toBeInstanceOf(SFIdentityError);
  });
});

describe('SFIdentityClient (spec 4.4)', () => {
  it('manages API keys and exchanges one for a session JWT', async () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    const client = new SFIdentityClient(app);
    const key = await client.createApiKey({ name: 'ci', tier: 'api', scopes: ['scim'] });
    expect((await client.validateApiKey(key.secret))?.id).toBe(key.id);
    expect((await client.listApiKeys()).map((listed) => listed.id)).toEqual([key.id]);
    const exchanged = await client.exchangeApiKey(key.secret);
    expect(exchanged.token_type).toBe('Bearer');
    const rotated = await client.rotateApiKey(key.id);
    expect(await client.validateApiKey(key.secret)).toBeNull();
    expect((await client.revokeApiKey(rotated.id)).status).toBe('revoked');
    await expect(client.exchangeApiKey(rotated.secret)).rejects.toBeInstanceOf(SFIdentityError);
    await expect(client.revokeApiKey('key-none')).rejects.toBeInstanceOf(SFIdentityError);
    await expect(client.rotateApiKey(rotated.id)).rejects.toBeInstanceOf(SFIdentityError);
    await expect(client.createApiKey({ tier: 'root' as 'api' })).rejects.toBeInstanceOf(SFIdentityError);
    await expect(client.oidcAuthorize()).rejects.toBeInstanceOf(SFIdentityError);
    expect(await client.samlMetadata()).toContain('EntityDescriptor');
    await expect(client.samlAcs('bm90IHNhbWw=')).rejects.toBeInstanceOf(SFIdentityError);
  });

  it('exports a singleton that opens nothing until used', () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    expect(sfIdentity).toBeInstanceOf(SFIdentityClient);
  });
});
