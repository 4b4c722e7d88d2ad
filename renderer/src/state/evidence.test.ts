import { describe, expect, it } from 'vitest';
import { fail, fakeTransport, ok } from '../test/fake-transport.ts';
import { createEvidenceStore } from './evidence.ts';

const project = (id: string) => ({
  project_id: id,
  head_seq: 3,
  head_hash: 'h',
  updated_at: '2026-11-22T00:00:00Z',
  records: 3,
  by_schema: {},
});
const page = (ids: string[]) => ({ items: ids.map((id) => ({ id })), total: ids.length, page: 1, limit: 25 });

describe('evidence store (through an injected Transport)', () => {
  it('selects the first project when none is chosen, and keeps a chosen one', async () => {
    const via = fakeTransport({ ops: { 'audit.projects': () => ok({ projects: [project('a'), project('b')] }) } });
    const store = createEvidenceStore(via);
    await store.getState().loadProjects();
    expect(store.getState().filters.projectId).toBe('a');
    store.getState().setFilters({ projectId: 'b' });
    await store.getState().loadProjects();
    expect(store.getState().filters.projectId).toBe('b');
  });

  it('sends only the filters that are set, and asks for a project first', async () => {
    const via = fakeTransport({ ops: { 'audit.query': () => ok(page(['r1'])) } });
    const store = createEvidenceStore(via);
    await store.getState().loadRecords();
    expect(store.getState().error).toBe('Choose a project first');
    expect(via.calls).toEqual([]);
    store.getState().setFilters({ projectId: 'p', from: '2026-01-01' });
    await store.getState().loadRecords(2);
    expect(via.calls).toEqual([{ name: 'audit.query', input: { project_id: 'p', page: 2, limit: 25, from: '2026-01-01' } }]);
    expect(store.getState()).toMatchObject({ page: 2, loading: false, error: null, records: { total: 1 } });
  });

  it('changing a filter drops the chain verdict of the previous choice', async () => {
    const via = fakeTransport({ ops: { 'audit.verifyChain': () => ok({ valid: true, records: 3 }) } });
    const store = createEvidenceStore(via);
    store.getState().setFilters({ projectId: 'p' });
    await store.getState().verifyChain();
    expect(store.getState().chain).toEqual({ valid: true, records: 3 });
    store.getState().setFilters({ schemaKey: 'gate_evaluations' });
    expect(store.getState().chain).toBeNull();
  });

  it('imports a file with its progress, then shows the imported project and its chain', async () => {
    const via = fakeTransport({
      ops: {
        'audit.importNdjson': (input) => {
          via.emit('progress', { requestId: 'other', op: 'audit.importNdjson', done: 9, total: 9, message: 'not ours' });
          expect(input).toEqual({ text: '{"a":1}\n', project_id: 'p' });
          return ok({ imported: 1, projects: [{ project_id: 'p', head_seq: 1 }] });
        },
        'audit.projects': () => ok({ projects: [project('p')] }),
        'audit.query': () => ok(page(['r1'])),
        'audit.verifyChain': () => ok({ valid: true, records: 1 }),
      },
    });
    const store = createEvidenceStore(via);
    await store.getState().importFile(new File(['{"a":1}\n'], 'e.ndjson'), 'p');
    expect(store.getState()).toMatchObject({ importing: false, importError: null, progress: { message: 'done' }, chain: { valid: true } });
    expect(via.calls.map((call) => call.name)).toEqual(['audit.importNdjson', 'audit.projects', 'audit.query', 'audit.verifyChain']);
  });

  it('shows a failed import with its message and keeps nothing half-loaded', async () => {
    const via = fakeTransport({ ops: { 'audit.importNdjson': () => fail('VALIDATION', 'line 2: invalid JSON') } });
    const store = createEvidenceStore(via);
    await store.getState().importFile(new File(['x'], 'e.ndjson'), '');
    expect(store.getState()).toMatchObject({ importing: false, importError: 'line 2: invalid JSON', progress: null, imported: null });
    expect(via.calls).toEqual([{ name: 'audit.importNdjson', input: { text: 'x' } }]);
  });
});
