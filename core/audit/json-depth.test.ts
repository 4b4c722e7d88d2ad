import { describe, expect, it } from 'vitest';
import { maxBodyDepth } from '../http/json-body.ts';
import { createTestServer } from '../http/test-support.ts';
import { dispatch } from '../ops/dispatch.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { exampleEvidence } from './examples.ts';
import { maxJsonDepth, nestedDeeperThan } from './json-depth.ts';
import { appendEvidence, countEvidence } from './store.ts';

/** A JSON text nested `depth` objects deep (built as text: no recursion in the test either). */
const deepText = (depth: number): string => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;
const deepRecord = (): string => JSON.stringify({ ...exampleEvidence(0, 'deep'), payload: '@' }).replace('"@"', deepText(3000));

describe('JSON nesting limit (64)', () => {
  it('counts depth without recursion', () => {
    expect(nestedDeeperThan(JSON.parse(deepText(3000)))).toBe(true);
    expect(nestedDeeperThan(JSON.parse(deepText(maxJsonDepth)))).toBe(false);
    expect(nestedDeeperThan(JSON.parse(deepText(maxJsonDepth + 1)))).toBe(true);
  });
});

describe.each(testBackends)('JSON nesting limit (64) on every ingest path on $name', (backend) => {
  const t = appPerTest(backend);

  it('appendEvidence and audit.importNdjson refuse a record nested 3,000 deep with a clear error', async () => {
    const { app } = t();
    await expect(appendEvidence(app, [JSON.parse(deepRecord())])).rejects.toThrow(/nested deeper than 64 levels/);
    const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
    const result = await dispatch('audit.importNdjson', { text: deepRecord() }, { app, actor });
    expect(result).toMatchObject({ ok: false });
    expect(JSON.stringify(result)).toMatch(/line 1: payload: nested deeper than 64 levels/);
    expect(Object.values(await countEvidence(app.database, { projectId: 'deep' }))).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('POST /v1/audit/records (JSON array and NDJSON) answers 400, never 500', async () => {
    const server = await createTestServer({ app: t().app });
    try {
      const json = await server.server.inject({
        method: 'POST',
        url: '/v1/audit/records',
        headers: { ...server.auth(), 'content-type': 'application/json' },
        payload: `[${deepRecord()}]`,
      });
      expect(json.statusCode).toBe(400);
      // A JSON body is refused by the body parser, whose limit leaves room for the envelope around a payload.
      expect(json.body).toContain(`JSON nested deeper than ${maxBodyDepth} levels`);
      const ndjson = await server.server.inject({
        method: 'POST',
        url: '/v1/audit/records',
        headers: { ...server.auth(), 'content-type': 'application/x-ndjson' },
        body: `${deepRecord()}\n`,
      });
      expect(ndjson.statusCode).toBe(400);
      expect(ndjson.body).toMatch(/nested deeper than 64 levels/);
    } finally {
      await server.close();
    }
  });
});
