import { describe, expect, it } from 'vitest';
import { fakeTransport, ok } from '../test/fake-transport.ts';
import { createChatStore } from './chat.ts';

describe('chat store (through an injected Transport)', () => {
  it('sends the whole conversation with only the options set, and appends the answer', async () => {
    const via = fakeTransport({ ops: { 'chat.complete': () => ok({ ok: true, text: 'Hello.', error: null }) } });
    const store = createChatStore(via);
    await store.getState().send('Hi', { model: 'm', piiFilter: 'redact' });
    expect(via.calls[0]?.input).toEqual({ messages: [{ role: 'user', content: 'Hi' }], model: 'm', pii_filter: 'redact' });
    expect(store.getState().turns).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
    ]);
  });

  it("keeps the user's turn but no answer when the provider refuses, and shows why", async () => {
    const store = createChatStore(
      fakeTransport({ ops: { 'chat.complete': () => ok({ ok: false, text: '', error: 'provider said 401' }) } }),
    );
    await store.getState().send('Hi', {});
    expect(store.getState()).toMatchObject({ turns: [{ role: 'user', content: 'Hi' }], error: 'provider said 401', sending: false });
  });
});
