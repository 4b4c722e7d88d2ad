import { afterEach, describe, expect, it } from 'vitest';
import { type TestServer, createTestServer } from '../http/test-support.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { computeRecordHash } from './chain.ts';
import { exampleEvidence } from './examples.ts';

let t: TestServer;
afterEach(async () => t?.close());
const ndjson = (lines: readonly string[]) => ({ 'content-type': 'application/x-ndjson' as const, body: `${lines.join('\n')}\n` });
const line = (i: number, project = 'p') => JSON.stringify(exampleEvidence(i, project));

describe.each(testBackends)('audit REST routes on $name', (backend) => {
  const apps = appPerTest(backend);
  it('POST /v1/audit/records takes a JSON array, all or nothing', async () => {
    t = await createTestServer({ app: apps().app });
    const ok = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: t.auth(t.keyFor('api')),
      payload: [exampleEvidence(0, 'p'), exampleEvidence(1, 'p')],
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ imported: 2, projects: [{ project_id: 'p', first_seq: 1, last_seq: 2 }] });
    const bad = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: t.auth(),
      payload: [exampleEvidence(2, 'p'), { ...exampleEvidence(3, 'p'), payload: {} }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ index: 1, message: expect.stringContaining('payload.') }]);
    const dup = await t.server.inject({ method: 'POST', url: '/v1/audit/records', headers: t.auth(), payload: [exampleEvidence(0, 'p')] });
    expect(dup.statusCode).toBe(409);
    const object = await t.server.inject({ method: 'POST', url: '/v1/audit/records', headers: t.auth(), payload: { records: [] } });
    expect(object.statusCode).toBe(400);
  });

  it('POST /v1/audit/records streams NDJSON and reports bad lines by number', async () => {
    t = await createTestServer({ app: apps().app });
    const { body, ...type } = ndjson([line(0), line(1), line(2, 'q')]);
    const ok = await t.server.inject({ method: 'POST', url: '/v1/audit/records', headers: { ...t.auth(), ...type }, body });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      imported: 3,
      projects: [
        { project_id: 'p', last_seq: 2 },
        { project_id: 'q', last_seq: 1 },
      ],
    });
    const bad = ndjson([line(3), 'nope', line(4), '{"project_id":"p"}']);
    const res = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: { ...t.auth(), 'content-type': bad['content-type'] },
      body: bad.body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.map((e: { line: number }) => e.line)).toEqual([2, 4]);
    const page = await t.server.inject({ method: 'GET', url: '/v1/audit/records?project_id=p', headers: t.auth() });
    expect(page.json().total).toBe(2);
  });

  it('needs the api tier to write and a credential to read', async () => {
    t = await createTestServer({ app: apps().app });
    const free = await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: t.auth(t.keyFor('free')),
      payload: [exampleEvidence(0, 'p')],
    });
    expect(free.statusCode).toBe(403);
    const anon = await t.server.inject({ method: 'POST', url: '/v1/audit/records', payload: [exampleEvidence(0, 'p')] });
    expect(anon.statusCode).toBe(401);
    expect((await t.server.inject({ method: 'GET', url: '/v1/audit/records?project_id=p' })).statusCode).toBe(401);
  });

  it('GET /v1/audit/records filters and pages; GET .../verify reports the chain', async () => {
    t = await createTestServer({ app: apps().app });
    await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: t.auth(),
      payload: Array.from({ length: 30 }, (_, i) => exampleEvidence(i, 'p')),
    });
    const page = await t.server.inject({
      method: 'GET',
      url: '/v1/audit/records?project_id=p&schema_key=bias_reports&limit=2&page=2',
      headers: t.auth(),
    });
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(page.json().records.map((r: { seq: number }) => r.seq)).toEqual([14, 20]);
    const badDate = await t.server.inject({ method: 'GET', url: '/v1/audit/records?project_id=p&from=2026-1-1', headers: t.auth() });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().error).toMatch(/YYYY-MM-DD/);
    const verified = await t.server.inject({ method: 'GET', url: '/v1/audit/chain/p/verify', headers: t.auth() });
    expect(verified.json()).toMatchObject({ valid: true, head_seq: 30, first_broken_seq: null });
    await t.app.database.run(`UPDATE audit_records SET payload = replace(payload, 'credit-risk', 'credit-r1sk') WHERE seq = 13`);
    const broken = await t.server.inject({ method: 'GET', url: '/v1/audit/chain/p/verify', headers: t.auth() });
    expect(broken.json()).toMatchObject({ valid: false, first_broken_seq: 13 });
    expect((await t.server.inject({ method: 'GET', url: '/v1/audit/chain/none/verify', headers: t.auth() })).statusCode).toBe(404);
  });

  it('GET /v1/audit/records.ndjson streams full records that re-hash', async () => {
    t = await createTestServer({ app: apps().app });
    await t.server.inject({
      method: 'POST',
      url: '/v1/audit/records',
      headers: t.auth(),
      payload: Array.from({ length: 1500 }, (_, i) => exampleEvidence(i, 'p')),
    });
    const res = await t.server.inject({
      method: 'GET',
      url: '/v1/audit/records.ndjson?project_id=p&schema_key=score_records',
      headers: t.auth(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const records = res.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(records).toHaveLength(250);
    for (const { hash, ...rest } of records) expect(computeRecordHash(rest)).toBe(hash);
    const bad = await t.server.inject({ method: 'GET', url: '/v1/audit/records.ndjson?project_id=p&to=tomorrow', headers: t.auth() });
    expect(bad.statusCode).toBe(400);
    expect((await t.server.inject({ method: 'GET', url: '/v1/audit/records.ndjson?project_id=p' })).statusCode).toBe(401);
  });
});
