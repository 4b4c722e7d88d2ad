import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createKeysStore } from './keys.ts';

describe('API keys store (through an injected Transport)', () => {
  it('reveals a new secret once, reloads the list, and forgets the secret when dismissed', async () => {
    let keys: { id: string }[] = [];
    const via = fakeTransport({
      ops: {
        'keys.list': () => ok(keys),
        'keys.create': () => {
          keys = [{ id: 'key-1' }];
          return ok({ id: 'key-1', secret: 'svc_secret' });
        },
      },
    });
    const store = createKeysStore(via);
    await store.getState().create({ tier: 'api' } as never);
    expect(store.getState()).toMatchObject({ revealed: { secret: 'svc_secret' }, keys: [{ id: 'key-1' }], loading: false });
    store.getState().dismissSecret();
    expect(store.getState().revealed).toBeNull();
  });

  it('rotates with the grace period given and shows a refusal', async () => {
    const via = fakeTransport({ ops: { 'keys.rotate': () => fail('NOT_FOUND', 'no such key') } });
    const store = createKeysStore(via);
    await store.getState().rotate('key-9', 3600);
    expect(via.calls[0]).toEqual({ name: 'keys.rotate', input: { id: 'key-9', grace_seconds: 3600 } });
    expect(store.getState()).toMatchObject({ error: 'no such key', revealed: null, loading: false });
  });
});
