import { describe, expect, it } from 'vitest';
import { fakeTransport } from '../test/fake-transport.ts';
import { createSessionStore } from './session.ts';

describe('session store (through an injected Transport)', () => {
  it('loads the session, refuses a bad key with a message, signs in with a good one and out again', async () => {
    const via = fakeTransport();
    const store = createSessionStore(via);
    expect(store.getState().status).toBe('loading');
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', session: { authenticated: false }, error: null });
    await store.getState().loginWithKey('bad-key');
    expect(store.getState().error).toMatch(/not valid/);
    expect(store.getState().session?.authenticated).toBe(false);
    await store.getState().loginWithKey('good-key');
    expect(store.getState()).toMatchObject({ error: null, session: { authenticated: true, tier: 'admin' } });
    await store.getState().logout();
    expect(store.getState().session?.authenticated).toBe(false);
    expect(via.sessionCalls).toEqual(['login bad-key', 'login good-key', 'logout']);
  });

  it('says the server is unreachable instead of throwing', async () => {
    const store = createSessionStore(fakeTransport({ session: { current: () => Promise.reject(new TypeError('fetch failed')) } }));
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', session: null, error: 'Cannot reach the workbench server' });
  });
});
