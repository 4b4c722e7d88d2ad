import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApp } from '../app.ts';
import { dispatch } from '../ops/dispatch.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'concurrency-worker.fixture.ts');
const crashWorker = join(import.meta.dirname, 'crash-worker.fixture.ts');
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(testBackends)('concurrent appends on $name', (backend) => {
  /** The env of the test's processes: on PostgreSQL, a fresh database's SVC_DATABASE_URL (the data dir's file otherwise). */
  let env: NodeJS.ProcessEnv = {};
  beforeEach(async () => {
    env = backend.name === 'postgres' ? { SVC_DATABASE_URL: await freshPostgresUrl() } : {};
  });
  /** The data dir's app as every process opens it (openApp). */
  const open = () => openApp({ dataDir: dir, env });
  const helper = (args: string[]) => [process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, ...env } }] as const;

  it('two processes appending to the same project in parallel keep one valid chain', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-conc-'));
    await (await open()).close(); // migrate once, before the race
    const writer = (name: string) =>
      run(...helper([worker, dir, name, '25'])).catch((error: { stderr?: string; code?: unknown; signal?: unknown }) => {
        throw new Error(`writer ${name} failed (exit ${String(error.code)} ${String(error.signal)}): ${error.stderr ?? String(error)}`);
      });
    await Promise.all(['a', 'b'].map(writer));
    const app = await open();
    try {
      const result = await verifyChain(app, 'shared');
      expect(result).toMatchObject({ valid: true, checked: 1000, head_seq: 1000 });
      const writers = await app.database.all(
        z.object({ w: z.string(), n: z.coerce.number() }),
        'SELECT substr(record_id, 1, 1) AS w, count(*) AS n FROM audit_records GROUP BY substr(record_id, 1, 1) ORDER BY w',
      );
      expect(writers).toEqual([
        { w: 'a', n: 500 },
        { w: 'b', n: 500 },
      ]);
      // Batches stay whole: the writer changes only at batch borders (every 20 records).
      const order = (
        await app.database.all(z.object({ w: z.string() }), 'SELECT substr(record_id, 1, 1) AS w FROM audit_records ORDER BY seq')
      ).map((r) => r.w);
      const switches = order.flatMap((w, i) => (i > 0 && w !== order[i - 1] ? [i] : []));
      expect(switches.every((i) => i % 20 === 0)).toBe(true);
    } finally {
      await app.close();
    }
  }, 60_000);

  it('a writer killed with SIGKILL mid-append leaves whole batches and a valid chain', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-crash-'));
    await (await open()).close();
    const [command, args, options] = helper([crashWorker, dir]);
    const child = spawn(command, args, { ...options, stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!existsSync(join(dir, 'running')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 100)); // land somewhere inside a batch
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const app = await open();
    try {
      const result = await verifyChain(app, 'crash');
      expect(result.valid).toBe(true);
      expect(result.head_seq).toBeGreaterThanOrEqual(1500);
      expect(result.head_seq % 500).toBe(0);
    } finally {
      await app.close();
    }
  }, 60_000);
});

describe.each(testBackends)('concurrent op calls on $name', (backend) => {
  const t = appPerTest(backend);
  it('parallel op calls in one process interleave whole batches', async () => {
    const { app } = t();
    const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
    const batch = (tag: string) => Array.from({ length: 50 }, (_, i) => ({ ...exampleEvidence(i, 'p'), record_id: `${tag}-${i}` }));
    const results = await Promise.all(['x', 'y', 'z'].map((tag) => dispatch('audit.append', { records: batch(tag) }, { app, actor })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await verifyChain(app, 'p')).toMatchObject({ valid: true, head_seq: 150 });
  });
});
