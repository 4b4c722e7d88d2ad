import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { dispatch } from '../ops/dispatch.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

const run = promisify(execFile);
const worker = join(import.meta.dirname, 'concurrency-worker.fixture.ts');
const crashWorker = join(import.meta.dirname, 'crash-worker.fixture.ts');
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('concurrent appends', () => {
  it('two processes appending to the same project in parallel keep one valid chain', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-conc-'));
    createApp({ dataDir: dir, env: {} }).close(); // migrate once, before the race
    await Promise.all(['a', 'b'].map((name) => run(process.execPath, ['--import', 'tsx', worker, dir, name, '25'])));
    const app = createApp({ dataDir: dir, env: {} });
    try {
      const result = await verifyChain(app, 'shared');
      expect(result).toMatchObject({ valid: true, checked: 1000, head_seq: 1000 });
      const writers = app.db.prepare(`SELECT substr(record_id, 1, 1) AS w, count(*) AS n FROM audit_records GROUP BY w`).all();
      expect(writers).toEqual([
        { w: 'a', n: 500 },
        { w: 'b', n: 500 },
      ]);
      // Batches stay whole: the writer changes only at batch borders (every 20 records).
      const order = (app.db.prepare(`SELECT substr(record_id, 1, 1) AS w FROM audit_records ORDER BY seq`).all() as { w: string }[]).map(
        (r) => r.w,
      );
      const switches = order.flatMap((w, i) => (i > 0 && w !== order[i - 1] ? [i] : []));
      expect(switches.every((i) => i % 20 === 0)).toBe(true);
    } finally {
      app.close();
    }
  }, 60_000);

  it('parallel op calls in one process interleave whole batches', async () => {
    const app = createApp({ dataDir: ':memory:', env: {} });
    const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
    const batch = (tag: string) => Array.from({ length: 50 }, (_, i) => ({ ...exampleEvidence(i, 'p'), record_id: `${tag}-${i}` }));
    const results = await Promise.all(['x', 'y', 'z'].map((tag) => dispatch('audit.append', { records: batch(tag) }, { app, actor })));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(await verifyChain(app, 'p')).toMatchObject({ valid: true, head_seq: 150 });
    app.close();
  });

  it('a writer killed with SIGKILL mid-append leaves whole batches and a valid chain', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-crash-'));
    createApp({ dataDir: dir, env: {} }).close();
    const child = spawn(process.execPath, ['--import', 'tsx', crashWorker, dir], { stdio: 'ignore' });
    const deadline = Date.now() + 30_000;
    while (!existsSync(join(dir, 'running')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 100)); // land somewhere inside a batch
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const app = createApp({ dataDir: dir, env: {} });
    try {
      const result = await verifyChain(app, 'crash');
      expect(result.valid).toBe(true);
      expect(result.head_seq).toBeGreaterThanOrEqual(1500);
      expect(result.head_seq % 500).toBe(0);
    } finally {
      app.close();
    }
  }, 60_000);
});
