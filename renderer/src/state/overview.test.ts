import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createOverviewStore } from './overview.ts';

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('overview store (through an injected Transport)', () => {
  it("loads a project's overview and then verifies its chain", async () => {
    const via = fakeTransport({
      ops: {
        'posture.overview': () => ok({ overview: { project_id: 'p', chain: { head_seq: 3 } } }),
        'audit.verifyChain': () => ok({ valid: true }),
      },
    });
    const store = createOverviewStore(via);
    await store.getState().load('p');
    await flush();
    expect(store.getState().chain).toEqual({ project: 'p', result: { valid: true }, error: null });
    expect(via.calls.map((call) => call.input)).toEqual([{ project_id: 'p' }, { project_id: 'p' }]);
  });

  it('loading the sample shows the sample project; a failed bundle check is kept as its message', async () => {
    const via = fakeTransport({
      ops: {
        'posture.loadSample': () => ok({ project_id: 'sample' }),
        'posture.overview': () => ok({ overview: null }),
        'cec.verifyBundle': () => fail('NOT_FOUND', 'zip gone'),
      },
    });
    const store = createOverviewStore(via);
    await store.getState().loadSample();
    expect(via.calls[1]).toEqual({ name: 'posture.overview', input: { project_id: 'sample' } });
    expect(store.getState()).toMatchObject({ busy: false, chain: null, error: null });
    await store.getState().verifyBundle('b1', '/tmp/b1.zip');
    expect(store.getState().bundleChecks).toEqual({ b1: 'zip gone' });
  });
});
