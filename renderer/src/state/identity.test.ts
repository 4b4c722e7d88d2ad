import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createDirectoryStore, createSsoSessionsStore, type DirectoryUser, usersPerPage } from './identity.ts';

const at = '2026-01-01T00:00:00.000Z';
const user = (id: string, active = true) =>
  ({
    id,
    user_name: `${id}@example.com`,
    display_name: '',
    emails: [],
    groups: [],
    active,
    created_at: at,
    updated_at: at,
  }) satisfies DirectoryUser;

describe('directory store (through an injected Transport)', () => {
  it('searches with the filter and page it was given, and keeps them for the reload after a change', async () => {
    const via = fakeTransport({
      ops: {
        'identity.scimListUsers': () => ok({ resources: [user('a')], total_results: 30 }),
        'identity.scimListGroups': () => ok({ resources: [] }),
        'identity.scimPatchUser': () => ok(user('a', false)),
      },
    });
    const store = createDirectoryStore(via);
    await store.getState().load('active eq true', 26);
    expect(store.getState()).toMatchObject({ total: 30, filter: 'active eq true', startIndex: 26, loading: false });
    await store.getState().setActive(user('a'), false);
    expect(store.getState().message).toBe('Deactivated a@example.com');
    const listed = via.calls.filter((call) => call.name === 'identity.scimListUsers').map((call) => call.input);
    expect(listed).toEqual([
      { filter_str: 'active eq true', start_index: 26, count: usersPerPage },
      { filter_str: 'active eq true', start_index: 26, count: usersPerPage },
    ]);
    expect(via.calls.find((call) => call.name === 'identity.scimPatchUser')?.input).toEqual({
      user_id: 'a',
      patch_ops: [{ op: 'replace', path: 'active', value: false }],
    });
  });

  it('creates a user with only the fields given, as a SCIM resource', async () => {
    const via = fakeTransport({
      ops: {
        'identity.scimCreateUser': () => ok(user('new')),
        'identity.scimListUsers': () => ok({ resources: [], total_results: 0 }),
        'identity.scimListGroups': () => ok({ resources: [] }),
      },
    });
    const store = createDirectoryStore(via);
    await store.getState().createUser({ userName: 'new', displayName: '', email: 'n@example.com' });
    expect(via.calls[0]?.input).toEqual({
      user_data: { userName: 'new', emails: [{ value: 'n@example.com', type: 'work', primary: true }] },
    });
    expect(store.getState().message).toBe('Created new@example.com');
  });

  it("shows the server's refusal and no success message", async () => {
    const store = createDirectoryStore(fakeTransport({ ops: { 'identity.scimCreateUser': () => fail('CONFLICT', 'userName taken') } }));
    await store.getState().createUser({ userName: 'dup', displayName: '', email: '' });
    expect(store.getState()).toMatchObject({ error: 'userName taken', message: null, loading: false });
  });
});

describe('SSO sessions store (through an injected Transport)', () => {
  it('lists with or without inactive sessions and words the outcome of a revoke', async () => {
    let live = true;
    const via = fakeTransport({
      ops: {
        'identity.ssoListSessions': () => ok([]),
        'identity.ssoRevokeSession': () => {
          const was = live;
          live = false;
          return ok(was);
        },
      },
    });
    const store = createSsoSessionsStore(via);
    await store.getState().load(true);
    await store.getState().revokeSession('sso-1');
    expect(store.getState().message).toBe('Revoked sso-1');
    await store.getState().revokeSession('sso-1');
    expect(store.getState().message).toBe('sso-1 was not live');
    const listed = via.calls.filter((call) => call.name === 'identity.ssoListSessions').map((call) => call.input);
    expect(listed).toEqual([{ include_inactive: true }, { include_inactive: true }, { include_inactive: true }]);
  });
});
