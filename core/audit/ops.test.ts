import { describe, expect, it } from 'vitest';
import type { App, ProgressEvent } from '../app.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { dispatch } from '../ops/dispatch.ts';
import { exampleEvidence } from './examples.ts';

let app: App;
const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
const call = (name: string, input: unknown, requestId?: string) =>
  dispatch(name, input, { app, actor, ...(requestId ? { requestId } : {}) });

describe.each(testBackends)('audit ops on $name', (backend) => {
  const t = appPerTest(backend);
  it('import with progress, then projects, query and verify', async () => {
    app = t().app;
    const events: ProgressEvent[] = [];
    app.events.on('progress', (e) => events.push(e));
    const text = Array.from({ length: 5000 }, (_, i) => JSON.stringify(exampleEvidence(i, 'demo'))).join('\n');
    const imported = await call('audit.importNdjson', { text }, 'req-1');
    expect(imported).toMatchObject({ ok: true, value: { imported: 5000 } });
    expect(events.length).toBeGreaterThan(1);
    expect(events.every((e) => e.requestId === 'req-1' && e.op === 'audit.importNdjson')).toBe(true);
    expect(await call('audit.projects', {})).toMatchObject({
      ok: true,
      value: { projects: [{ project_id: 'demo', record_count: 5000, head_seq: 5000 }] },
    });
    expect(await call('audit.query', { project_id: 'demo', limit: '3', page: '2' })).toMatchObject({
      ok: true,
      value: { total: 5000, page: 2 },
    });
    expect(await call('audit.verifyChain', { project_id: 'demo' })).toMatchObject({ ok: true, value: { valid: true, checked: 5000 } });
  });

  it('reports errors as coded envelopes', async () => {
    app = t().app;
    expect(await call('audit.importNdjson', { text: '{}\n' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', message: expect.stringContaining('line 1') },
    });
    expect(await call('audit.append', { records: [] })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    expect(await call('audit.query', { project_id: 'x', limit: 501 })).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
    const free = await dispatch('audit.append', { records: [exampleEvidence(0, 'p')] }, { app, actor: { ...actor, tier: 'free' } });
    expect(free).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});
