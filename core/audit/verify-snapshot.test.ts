import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { createApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { exportNdjson } from './export.ts';
import { appendEvidence } from './store.ts';
import { verifyChain } from './verify.ts';

const worker = join(import.meta.dirname, 'concurrency-worker.fixture.ts');
let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('consistent reads while other processes append', () => {
  it('never reports a false verdict, and exports one state of the chain', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-snapshot-'));
    const app = createApp({ dataDir: dir, env: {} });
    try {
      // Longer than one verification page (2000), so every walk yields between pages while writers commit.
      for (let b = 0; b < 10; b++) {
        await appendEvidence(
          app,
          Array.from({ length: 500 }, (_, i) => ({ ...exampleEvidence(i, 'shared'), record_id: `s-${b}-${i}` })),
        );
      }
      const writers = ['a', 'b'].map(
        (name) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, name, '150'], { stdio: 'ignore' });
            child.once('exit', resolve);
          }),
      );
      let running = true;
      const finished = Promise.all(writers).then((codes) => {
        running = false;
        return codes;
      });
      const verdicts: { valid: boolean; head_seq: number; reason: string | null }[] = [];
      const exports: { lines: number; contiguous: boolean }[] = [];
      while (running) {
        verdicts.push(await verifyChain(app, 'shared'));
        let expected = 1;
        let contiguous = true;
        for await (const line of exportNdjson(app, { projectId: 'shared' })) {
          if ((JSON.parse(line) as { seq: number }).seq !== expected) contiguous = false;
          expected += 1;
        }
        exports.push({ lines: expected - 1, contiguous });
      }
      expect(await finished).toEqual([0, 0]);
      verdicts.push(await verifyChain(app, 'shared'));
      expect(verdicts.filter((verdict) => !verdict.valid)).toEqual([]);
      expect(verdicts.length).toBeGreaterThan(2);
      // The walks saw the chain grow: they ran while the writers appended, not only before or after.
      expect(new Set(verdicts.map((verdict) => verdict.head_seq)).size).toBeGreaterThan(2);
      expect(verdicts.at(-1)).toMatchObject({ valid: true, head_seq: 5000 + 2 * 150 * 20 });
      expect(exports.every((entry) => entry.contiguous)).toBe(true);
    } finally {
      app.close();
    }
  }, 120_000);
});

describe.each(testBackends)('a read snapshot on $name', (backend) => {
  const t = appPerTest(backend);
  it('keeps seeing one state while another instance appends, and releases it on close', async () => {
    const { app } = t();
    const second = await t().second();
    const count = z.object({ n: z.number() });
    const records = 'SELECT count(*) AS n FROM audit_records';
    await appendEvidence(app, [exampleEvidence(0, 'p')]);
    const snapshot = await app.database.snapshot();
    expect((await snapshot.one(count, records))?.n).toBe(1);
    await appendEvidence(second, [exampleEvidence(1, 'p'), exampleEvidence(2, 'p')]);
    expect((await snapshot.one(count, records))?.n).toBe(1);
    expect((await app.database.one(count, records))?.n).toBe(3);
    await snapshot.close();
    expect(await verifyChain(app, 'p')).toMatchObject({ valid: true, head_seq: 3 });
  });
});
