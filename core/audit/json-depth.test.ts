import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { dispatch } from '../ops/dispatch.ts';
import { exampleEvidence } from './examples.ts';
import { maxJsonDepth, nestedDeeperThan } from './json-depth.ts';
import { appendEvidenceAsync } from './store.ts';

/** A JSON text nested `depth` objects deep (built as text: no recursion in the test either). */
const deepText = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const deepRecord = (): string => JSON.stringify({ ...exampleEvidence(0, 'deep'), payload: '@' }).replace('"@"', deepText(3000));

let app: App;
let t: TestServer;
beforeAll(async () => {
  app = createApp({ dataDir: ':memory:', env: {} });
  t = await createTestServer();
});
afterAll(async () => {
  app.close();
  await t.close();
});

describe('JSON nesting limit (64) on every ingest path', () => {
  it('counts depth without recursion', () => {
    expect(nestedDeeperThan(JSON.parse(deepText(3000)))).toBe(true);
    expect(nestedDeeperThan(JSON.parse(deepText(maxJsonDepth)))).toBe(false);
    expect(nestedDeeperThan(JSON.parse(deepText(maxJsonDepth + 1)))).toBe(true);
  });

  it('appendEvidence and audit.importNdjson refuse a record nested 3,000 deep with a clear error', async () => {
    await expect(appendEvidenceAsync(app, [JSON.parse(deepRecord())])).rejects.toThrow(/nested deeper than 64 levels/);
    const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
    const result = await dispatch('audit.importNdjson', { text: deepRecord() }, { app, actor });
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toMatch(/line 1: payload: nested deeper than 64 levels/);
  });

  it('POST /v1/audit/records (JSON array and NDJSON) answers 400, never 500', async () => {
    const json = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: { ...t.auth(), 'content-type': 'application/json' },
      payload: `[${deepRecord()}]`,
    });
    expect(json.statusCode).toBe(400);
    expect(json.body).toMatch(/nested deeper than 64 levels/);
    const ndjson = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: { ...t.auth(), 'content-type': 'application/x-ndjson' },
      body: `${deepRecord()}\n`,
    });
    expect(ndjson.statusCode).toBe(400);
    expect(ndjson.body).toMatch(/nested deeper than 64 levels/);
  });
});
