import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { testBackends } from '../../test-support/backends.ts';
import { appPerDescribe } from '../app-per-describe.test-support.ts';
import { pdfToText, sampleRequest } from './test-support.ts';

describe.each(testBackends)('POST /v1/risk/dpa and export downloads on $name', (backend) => {
  const fixture = appPerDescribe(backend);
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ app: fixture().app });
  });
  afterAll(async () => t.close());

  it('creates a DPA (201) with links that download each format', async () => {
    const created = await t.server.inject({
      method: 'POST',
      url: '/v1/risk/dpa',
      headers: t.auth(await t.newKey('api')),
      payload: sampleRequest(),
    });
    expect(created.statusCode).toBe(201);
    const body = created.json() as { document_id: string; content: string; exports: Record<string, string> };
    expect(body.content).toContain('# Data Processing Agreement');

    const pdf = await t.server.inject({ method: 'GET', url: body.exports.pdf ?? '', headers: t.auth() });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="dpa_credit-model_${body.document_id}.pdf"`);
    expect(await pdfToText(pdf.rawPayload)).toContain('Annex III: Sub-processors');

    const md = await t.server.inject({ method: 'GET', url: body.exports.md ?? '', headers: t.auth() });
    expect(md.body).toBe(body.content);
  });

  it('answers 422 with a detail for invalid input', async () => {
    const response = await t.server.inject({
      method: 'POST',
      url: '/v1/risk/dpa',
      headers: t.auth(),
      payload: { ...sampleRequest(), transfer_mechanisms: ['telepathy'] },
    });
    expect(response.statusCode).toBe(422);
    expect((response.json() as { detail: string }).detail).toContain('unknown transfer mechanism "telepathy"');
  });

  it('guards downloads: 401 without credentials, 403 below the api tier, 404 for unknown ids or formats', async () => {
    const url = '/v1/risk/dpa/dpa-01M802TQ16HTG9K28ZHBHRVTE7/export.pdf';
    expect((await t.server.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.server.inject({ method: 'GET', url, headers: t.auth(await t.newKey('free')) })).statusCode).toBe(403);
    const unknown = await t.server.inject({ method: 'GET', url, headers: t.auth() });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ detail: 'DPA document not found' });
    const badFormat = await t.server.inject({ method: 'GET', url: url.replace('.pdf', '.exe'), headers: t.auth() });
    expect(badFormat.statusCode).toBe(404);
  });
});
