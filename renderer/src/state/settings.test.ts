import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createSettingsStore } from './settings.ts';

describe('settings store (through an injected Transport)', () => {
  it('loads the view, saves a change and says it was saved', async () => {
    const via = fakeTransport({
      ops: { 'settings.get': () => ok({ values: { piiAction: 'mask' } }), 'settings.update': () => ok({ values: { piiAction: 'block' } }) },
    });
    const store = createSettingsStore(via);
    await store.getState().load();
    expect(store.getState().view?.values.piiAction).toBe('mask');
    await store.getState().save({ values: { piiAction: 'block' }, secrets: {} });
    expect(store.getState()).toMatchObject({ saved: true, saving: false, error: null, view: { values: { piiAction: 'block' } } });
    expect(via.calls[1]).toEqual({ name: 'settings.update', input: { values: { piiAction: 'block' }, secrets: {} } });
  });

  it('keeps the last view and shows the refusal when a save fails', async () => {
    const via = fakeTransport({
      ops: {
        'settings.get': () => ok({ values: { piiAction: 'mask' } }),
        'settings.update': () => fail('VALIDATION', 'piiAction: invalid'),
      },
    });
    const store = createSettingsStore(via);
    await store.getState().load();
    await store.getState().save({ values: {}, secrets: {} });
    expect(store.getState()).toMatchObject({
      saved: false,
      saving: false,
      error: 'piiAction: invalid',
      view: { values: { piiAction: 'mask' } },
    });
  });
});
