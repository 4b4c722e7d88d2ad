import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { SFIdentityError } from '../errors.ts';
import { SFIdentityClient, sfIdentity } from './client.ts';

let app: App;
afterEach(() => app.close());

const thrown = (work: () => unknown): unknown => {
  try {
    work();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('SFIdentityClient (spec 4.4)', () => {
  it('runs the SCIM operations with spec records and SFIdentityError', () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    const client = new SFIdentityClient(app);
    const user = client.scimCreateUser({
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
    expect(thrown(() => client.scimCreateUser({ userName: 'SDK@x.test' }))).toBeInstanceOf(SFIdentityError);
    expect(client.scimGetUser(user.id)).toEqual(user);
    expect(thrown(() => client.scimGetUser('scim-user-none'))).toBeInstanceOf(SFIdentityError);
    expect(client.scimListUsers()).toMatchObject({ total_results: 1, start_index: 1, items_per_page: 1 });
    expect(client.scimListUsers('userName eq "nobody"').resources).toEqual([]);
    expect(client.scimPatchUser(user.id, [{ op: 'replace', path: 'active', value: false }]).active).toBe(false);
    expect(client.scimPatchUser(user.id, [{ op: 'replace', path: 'active', value: true }]).active).toBe(true);
    const group = client.scimCreateGroup({ displayName: 'Auditors', members: [{ value: user.id }] });
    expect(client.scimListGroups()).toMatchObject({
      total_results: 1,
      resources: [{ id: group.id, members: [{ value: user.id, display: 'sdk@x.test' }] }],
    });
    client.scimDeleteGroup(group.id);
    expect(client.scimGetUser(user.id).groups).toEqual([]);
    client.scimDeleteUser(user.id);
    expect(thrown(() => client.scimDeleteUser(user.id))).toBeInstanceOf(SFIdentityError);
  });

  it('delegates, reads and revokes SSO sessions; deleting the user revokes theirs', async () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    const client = new SFIdentityClient(app);
    const user = client.scimCreateUser({ userName: 'sso-user' });
    const session = client.ssoDelegateSession('idp-1', 'sso-user', 'u@x.test', 'proj');
    expect(client.ssoGetSession(session.session_id)).toEqual(session);
    const later = await client.ssoDelegateSessionAsync('idp-2', 'sso-user');
    expect(later).toMatchObject({ email: '', project_id: 'default' });
    client.scimDeleteUser(user.id);
    expect(thrown(() => client.ssoGetSession(session.session_id))).toBeInstanceOf(SFIdentityError);
    expect(thrown(() => client.ssoGetSession(later.session_id))).toBeInstanceOf(SFIdentityError);
    const free = client.ssoDelegateSession('idp-3', 'someone-else', '', 'default');
    expect(client.ssoRevokeIdpSession('idp-3')).toBe(true);
    expect(client.ssoRevokeIdpSession('idp-3')).toBe(false);
    expect(thrown(() => client.ssoGetSession(free.session_id))).toBeInstanceOf(SFIdentityError);
  });

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
    expect(client.samlMetadata()).toContain('EntityDescriptor');
    await expect(client.samlAcs('bm90IHNhbWw=')).rejects.toBeInstanceOf(SFIdentityError);
  });

  it('exports a singleton that opens nothing until used', () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    expect(sfIdentity).toBeInstanceOf(SFIdentityClient);
  });
});
