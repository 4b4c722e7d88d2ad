import { beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import type { Actor } from '../../ops/define.ts';
import { dispatch, invoke } from '../../ops/dispatch.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { sampleRequest } from './test-support.ts';
import type { DPADocument } from './types.ts';

const actor: Actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] };
let clock = Date.parse('2026-03-01T10:00:00Z');
const tick = (): Date => {
  clock += 1000;
  return new Date(clock);
};

describe.each(testBackends)('dpa ops on $name', (backend) => {
  const t = appPerTest(backend, { now: tick });
  let app: App;
  beforeEach(() => {
    app = t().app;
  });
  const call = (name: string, input: unknown, on: App = app) => invoke(name, input, { app: on, actor });

  it('generate, list, get, export and delete a stored document', async () => {
    const created = (await call('dpa.generate', sampleRequest())) as DPADocument & { exports: Record<string, string> };
    expect(created.document_id).toMatch(/^dpa-[0-9A-Z]{26}$/);
    expect(created.transfer_mechanisms).toEqual(['adequacy_decision', 'scc_2021_914_module_2']);
    expect(created.exports.pdf).toBe(`/v1/risk/dpa/${created.document_id}/export.pdf`);

    const listed = (await call('dpa.list', { project_id: 'credit-model' })) as {
      documents: { document_id: string; controller_name: string }[];
    };
    expect(listed.documents).toEqual([expect.objectContaining({ document_id: created.document_id, controller_name: 'Acme Lending GmbH' })]);

    const fetched = (await call('dpa.get', { id: created.document_id })) as DPADocument;
    expect(fetched.content).toBe(created.content);

    const file = (await call('dpa.export', { id: created.document_id, format: 'docx' })) as {
      filename: string;
      mime: string;
      base64: string;
    };
    expect(file.filename).toBe(`dpa_credit-model_${created.document_id}.docx`);
    expect(Buffer.from(file.base64, 'base64').subarray(0, 2).toString()).toBe('PK');

    await call('dpa.delete', { id: created.document_id });
    const gone = await dispatch('dpa.get', { id: created.document_id }, { app, actor });
    expect(gone).toEqual({ ok: false, error: { code: 'NOT_FOUND', message: 'DPA document not found' } });
  });

  it('is deterministic: same input, same content; only id and time differ', async () => {
    const first = (await call('dpa.generate', sampleRequest())) as DPADocument;
    const second = (await call('dpa.generate', sampleRequest())) as DPADocument;
    expect(second.content).toBe(first.content);
    expect(second.document_id).not.toBe(first.document_id);
    expect(second.generated_at).not.toBe(first.generated_at);
    const { document_id: _a, generated_at: _b, exports: _e, ...rest1 } = first as DPADocument & { exports: unknown };
    const { document_id: _c, generated_at: _d, exports: _f, ...rest2 } = second as DPADocument & { exports: unknown };
    expect(rest2).toEqual(rest1);
  });

  it('previews without storing', async () => {
    const preview = (await call('dpa.preview', sampleRequest())) as { content: string; html: string };
    expect(preview.html).toContain('<h1>Data Processing Agreement</h1>');
    expect(((await call('dpa.list', {})) as { documents: unknown[] }).documents).toHaveLength(0);
  });

  it('lists authorised sub-processors in Annex III and names the SCC module for processor-to-processor transfers', async () => {
    const preview = (await call('dpa.preview', {
      ...sampleRequest(),
      transfer_mechanisms: ['scc_2021_914_module_3'],
      sub_processors: [{ name: 'CloudHost | BV', location: 'Amsterdam', activity: 'Hosting' }],
    })) as { content: string };
    expect(preview.content).toContain('| CloudHost \\| BV | Amsterdam | Hosting |');
    expect(preview.content).toContain('**Module Three**');
    expect(preview.content).not.toContain('No sub-processor is authorised');
  });

  it('offers the transfer mechanisms to the form', async () => {
    const options = (await call('dpa.options', {})) as { transfer_mechanisms: { id: string; display_name: string }[] };
    expect(options.transfer_mechanisms.map((m) => m.id)).toContain('scc_2021_914_module_3');
  });

  it('reports bad input as VALIDATION with the field path', async () => {
    const result = await dispatch('dpa.generate', { ...sampleRequest(), retention_period_days: -1 }, { app, actor });
    expect(result).toEqual({
      ok: false,
      error: { code: 'VALIDATION', message: 'retention_period_days: must be a positive number of days' },
    });
    const badFormat = await dispatch('dpa.export', { id: 'dpa-01M802TQ16HTG9K28ZHBHRVTE7', format: 'exe' }, { app, actor });
    expect(badFormat).toEqual({ ok: false, error: { code: 'VALIDATION', message: 'format: must be one of md, html, pdf, docx' } });
  });

  it('needs the api tier', async () => {
    const free: Actor = { kind: 'apiKey', id: 'k', tier: 'free', scopes: [] };
    const result = await dispatch('dpa.generate', sampleRequest(), { app, actor: free });
    expect(result.ok ? 'ok' : result.error.code).toBe('FORBIDDEN');
  });

  it('keeps ids unique and every document visible across two instances writing at once', async () => {
    const second = await t().second();
    const created = (await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call('dpa.generate', { ...sampleRequest(), project_id: `p${i % 3}` }, i % 2 === 0 ? app : second),
      ),
    )) as DPADocument[];
    const ids = created.map((document) => document.document_id);
    expect(new Set(ids).size).toBe(12);
    for (const on of [app, second]) {
      const listed = (await call('dpa.list', {}, on)) as { documents: { document_id: string }[] };
      expect(listed.documents.map((d) => d.document_id).sort()).toEqual([...ids].sort());
    }
    const [first] = ids;
    await call('dpa.delete', { id: first }, second);
    expect(await dispatch('dpa.get', { id: first }, { app, actor })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await dispatch('dpa.delete', { id: first }, { app, actor })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('refuses a second document with an id already stored (the primary key holds on every instance)', async () => {
    const created = (await call('dpa.generate', sampleRequest())) as DPADocument & { exports: unknown };
    const { exports: _exports, ...document } = created;
    const second = await t().second();
    const { saveDpa } = await import('./store.ts');
    await expect(saveDpa(second, { ...document, content: 'replaced' })).rejects.toThrow();
    expect(((await call('dpa.get', { id: created.document_id })) as DPADocument).content).toBe(created.content);
  });
});
