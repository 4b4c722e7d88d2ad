import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app.ts';
import { runCli } from '../../cli/test-support.ts';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { exampleEvidence } from '../examples.ts';
import { appendEvidence } from '../store.ts';
import { anchorCommand, anchorsCommand } from './cli.ts';
import { anchorSchema } from './statement.ts';
import { seedChain } from './test-support.ts';

let t: TestServer | undefined;
let dir = '';
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(testBackends)('anchor routes on $name', (backend) => {
  const apps = appPerTest(backend);
  it('POST anchors the head, GET lists anchors; both need an API key and a valid project id', async () => {
    t = await createTestServer({ app: apps().app });
    await seedChain(t.app, 'p', 2);
    const made = await t.server.inject({ method: 'POST', url: '/v1/audit/anchors/p', headers: t.auth(await t.newKey('api')) });
    expect(made.statusCode).toBe(200);
    expect(made.json()).toMatchObject({ created: true, anchor: { project_id: 'p', seq: 2, kind: 'ed25519' } });
    const other = await createTestServer({ app: await apps().second() });
    try {
      // The other instance answers from the same database.
      const elsewhere = await other.server.inject({ method: 'GET', url: '/v1/audit/anchors/p?from_seq=2', headers: other.auth() });
      expect(elsewhere.json()).toEqual({ anchors: [made.json().anchor] });
    } finally {
      await other.close(); // its server only: the app belongs to appPerTest
    }
    const listed = await t.server.inject({ method: 'GET', url: '/v1/audit/anchors/p', headers: t.auth(await t.newKey('api')) });
    expect(listed.statusCode).toBe(200);
    const anchors = listed.json().anchors as unknown[];
    expect(anchors).toHaveLength(1);
    expect(anchorSchema.parse(anchors[0])).toEqual(made.json().anchor);
    expect((await t.server.inject({ method: 'GET', url: '/v1/audit/anchors/p' })).statusCode).toBe(401);
    expect((await t.server.inject({ method: 'GET', url: '/v1/audit/anchors/..%2Fx', headers: t.auth() })).statusCode).toBe(400);
  });
});

describe('svc anchor / svc anchors export', () => {
  it('anchors once, reports an unmoved head, exports NDJSON and JSON; usage errors exit 2', async () => {
    dir = mkdtempSync(join(tmpdir(), 'anchor-cli-'));
    const app = createApp({ dataDir: dir });
    await appendEvidence(app, [exampleEvidence(0, 'p')]);
    app.close();
    const first = await runCli(anchorCommand, ['--project', 'p', '--data-dir', dir]);
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Anchored p seq 1 head [0-9a-f]{64} \(ed25519, /) });
    const again = await runCli(anchorCommand, ['--project', 'p', '--data-dir', dir]);
    expect(again.stdout).toMatch(/^Head unchanged since the last anchor: p seq 1/);
    expect((await runCli(anchorCommand, ['--project', 'empty', '--data-dir', dir])).code).toBe(1);
    expect((await runCli(anchorCommand, ['--data-dir', dir])).code).toBe(2);

    const ndjson = await runCli(anchorsCommand, ['export', '--project', 'p', '--data-dir', dir]);
    const lines = ndjson.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(anchorSchema.parse(JSON.parse(lines[0] as string))).toMatchObject({ seq: 1, kind: 'ed25519' });
    const file = join(dir, 'anchors.json');
    expect((await runCli(anchorsCommand, ['export', '--project', 'p', '--format', 'json', '--out', file, '--data-dir', dir])).code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ schema_version: 1, project_id: 'p', anchors: [{ seq: 1 }] });
    expect((await runCli(anchorsCommand, ['export', '--project', 'p', '--format', 'xml', '--data-dir', dir])).code).toBe(2);
  });
});
