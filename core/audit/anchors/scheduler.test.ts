import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../app.ts';
import { seedDays } from '../../cec/test-support.ts';
import { startTestTsa, type TestTsa } from '../../cec/timestamp/test-tsa.ts';
import { startAnchorScheduler } from './scheduler.ts';
import { listAnchors } from './store.ts';

let tsa: TestTsa;
beforeAll(async () => {
  tsa = await startTestTsa();
});
afterAll(() => tsa.close());

/** A real app on a temp dir with a fast interval (0.01 min = 600 ms) and a logger whose lines the test reads. */
const scheduledApp = (intervalMinutes = '0.01') => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-anchor-'));
  const lines: string[] = [];
  const sink = new Writable({
    write: (chunk, _encoding, done) => {
      lines.push(String(chunk));
      done();
    },
  });
  const app = createApp({
    dataDir: dir,
    env: { SVC_SIGNING_KEY: 'test-signing-key-0123456789abcdef', SVC_TSA_URL: tsa.url, SVC_ANCHOR_INTERVAL_MINUTES: intervalMinutes },
    log: pino({ level: 'info' }, sink),
  });
  const cleanup = (): void => {
    app.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, lines, cleanup };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('anchor scheduler', () => {
  it('anchors heads that moved, not unmoved ones; survives a failing TSA and retries; stops on close', async () => {
    const { app, lines, cleanup } = scheduledApp();
    try {
      seedDays(app, 'before-start', ['2026-06-01']); // written while no scheduler ran: anchored on start
      startAnchorScheduler(app);
      seedDays(app, 's', ['2026-06-01']);
      await vi.waitFor(() => expect(listAnchors(app, 's').map((a) => a.seq)).toEqual([6]), { timeout: 20_000, interval: 100 });
      await vi.waitFor(() => expect(listAnchors(app, 'before-start').map((a) => a.seq)).toEqual([6]), { timeout: 20_000 });

      const quiet = tsa.requests();
      await sleep(2_500); // several intervals with no new records
      expect(tsa.requests()).toBe(quiet);

      tsa.setMode('http-error');
      seedDays(app, 's', ['2026-06-02']);
      await vi.waitFor(() => expect(lines.join('')).toMatch(/anchoring failed; retrying next interval/), { timeout: 20_000 });
      expect(listAnchors(app, 's').map((a) => a.seq)).toEqual([6]);
      tsa.setMode('normal');
      await vi.waitFor(() => expect(listAnchors(app, 's').map((a) => a.seq)).toEqual([6, 12]), { timeout: 20_000, interval: 100 });
    } finally {
      tsa.setMode('normal');
      cleanup();
    }
  });

  it('a closed app anchors nothing more (the timer is cleared) and the interval 0 disables anchoring', async () => {
    const { app, cleanup } = scheduledApp();
    startAnchorScheduler(app);
    const before = tsa.requests();
    seedDays(app, 'c', ['2026-06-01']);
    cleanup(); // closes before the first tick (the batch delay is 600 ms)
    await sleep(1_500);
    expect(tsa.requests()).toBe(before);

    const off = scheduledApp('0');
    try {
      startAnchorScheduler(off.app);
      seedDays(off.app, 'o', ['2026-06-01']);
      await sleep(1_500);
      expect(listAnchors(off.app, 'o')).toEqual([]);
    } finally {
      off.cleanup();
    }
  });
});
