import { describe, expect, it } from 'vitest';
import { fakeTransport, ok } from '../test/fake-transport.ts';
import { createAnchorsStore } from './anchors.ts';

const anchorAt = (seq: number) => ({ seq });

describe('anchors store (through an injected Transport)', () => {
  it.each([
    [{ anchor: null, created: false }, 'p has no records to anchor'],
    [{ anchor: anchorAt(12), created: true }, 'Anchored p at seq 12'],
    [{ anchor: anchorAt(12), created: false }, 'Head of p has not moved since the anchor at seq 12'],
  ])('says what "Anchor now" did (%o) and reloads the anchors', async (outcome, notice) => {
    const via = fakeTransport({ ops: { 'audit.anchor': () => ok(outcome), 'audit.anchors': () => ok({ anchors: [anchorAt(12)] }) } });
    const store = createAnchorsStore(via);
    await store.getState().anchorNow('p');
    expect(store.getState()).toMatchObject({ notice, anchoring: false, error: null, anchors: [{ seq: 12 }] });
    expect(via.calls.map((call) => call.name)).toEqual(['audit.anchor', 'audit.anchors']);
  });

  it('drops the answer for a project the user has already left', async () => {
    let release: () => void = () => {};
    const via = fakeTransport({
      ops: {
        'audit.anchors': (input) =>
          (input as { project_id: string }).project_id === 'old'
            ? new Promise((resolve) => {
                release = () => resolve(ok({ anchors: [anchorAt(1)] }));
              })
            : ok({ anchors: [anchorAt(2)] }),
      },
    });
    const store = createAnchorsStore(via);
    const stale = store.getState().load('old');
    await store.getState().load('new');
    release();
    await stale;
    expect(store.getState()).toMatchObject({ projectId: 'new', anchors: [{ seq: 2 }] });
  });
});
