import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createFrameworksStore } from './frameworks.ts';

describe('frameworks store (through an injected Transport)', () => {
  it('asks for the clause map with only the filters set and indexes the clause definitions by id', async () => {
    const via = fakeTransport({
      ops: {
        'frameworks.clauseMap': () => ok({ entries: [] }),
        'frameworks.clauses': () => ok({ clauses: [{ clause_id: 'CC6.1', rationale: 'why' }] }),
      },
    });
    const store = createFrameworksStore(via);
    await store.getState().showMap({ project_id: 'p', framework: 'soc2', from: '2026-01-01' });
    expect(via.calls[0]?.input).toEqual({ project_id: 'p', frameworks: ['soc2'], from: '2026-01-01' });
    expect(store.getState()).toMatchObject({
      loading: false,
      query: { framework: 'soc2' },
      definitions: { 'CC6.1': { rationale: 'why' } },
    });
  });

  it('clears the map and shows the refusal when the server refuses', async () => {
    const store = createFrameworksStore(
      fakeTransport({
        ops: { 'frameworks.clauseMap': () => fail('VALIDATION', 'unknown framework'), 'frameworks.clauses': () => ok({ clauses: [] }) },
      }),
    );
    await store.getState().showMap({ project_id: 'p', framework: 'nope' });
    expect(store.getState()).toMatchObject({ map: null, loading: false, error: 'unknown framework' });
  });
});
