import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestTsa, type TestTsa } from '../../cec/timestamp/test-tsa.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { startAnchorScheduler } from './scheduler.ts';
import { listAnchors } from './store.ts';
import { seedChain } from './test-support.ts';

let tsa: TestTsa;
/** A fast interval (0.01 min = 600 ms); the TSA URL is filled in once the TSA listens. */
const env: NodeJS.ProcessEnv = { SVC_ANCHOR_INTERVAL_MINUTES: '0.01' };
beforeAll(async () => {
  tsa = await startTestTsa();
  env.SVC_TSA_URL = tsa.url;
});
afterAll(() => tsa.close());

/** The log lines of the apps of the current test. */
const lines: string[] = [];
const sink = new Writable({
  write: (chunk, _encoding, done) => {
    lines.push(String(chunk));
    done();
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seqs = async (app: Parameters<typeof listAnchors>[0], projectId: string) => (await listAnchors(app, projectId)).map((a) => a.seq);

describe.each(testBackends)('anchor scheduler on $name', (backend) => {
  const t = appPerTest(backend, { env, log: pino({ level: 'info' }, sink) });
  const off = appPerTest(backend, { env: { SVC_ANCHOR_INTERVAL_MINUTES: '0' } });

  it('anchors heads that moved, not unmoved ones; survives a failing TSA and retries; stops on close', async () => {
    const { app } = t();
    lines.length = 0;
    try {
      await seedChain(app, 'before-start', 6); // written while no scheduler ran: anchored on the first tick
      startAnchorScheduler(app);
      await seedChain(app, 's', 6);
      await vi.waitFor(async () => expect(await seqs(app, 's')).toEqual([6]), { timeout: 20_000, interval: 100 });
      await vi.waitFor(async () => expect(await seqs(app, 'before-start')).toEqual([6]), { timeout: 20_000 });

      const quiet = tsa.requests();
      await sleep(2_500); // several intervals with no new records
      expect(tsa.requests()).toBe(quiet);

      tsa.setMode('http-error');
      await seedChain(app, 's', 6);
      await vi.waitFor(() => expect(lines.join('')).toMatch(/anchoring failed; retrying next interval/), { timeout: 20_000 });
      expect(await seqs(app, 's')).toEqual([6]);
      tsa.setMode('normal');
      await vi.waitFor(async () => expect(await seqs(app, 's')).toEqual([6, 12]), { timeout: 20_000, interval: 100 });
    } finally {
      tsa.setMode('normal');
    }
  });

  it('two instances running the scheduler on one database anchor at most once per interval between them', async () => {
    const { app } = t();
    const other = await t().second();
    startAnchorScheduler(app);
    startAnchorScheduler(other);
    // Records keep arriving through both instances for several intervals.
    for (let round = 0; round < 12; round += 1) {
      await seedChain(round % 2 === 0 ? app : other, 'busy', 2);
      await sleep(250);
    }
    await vi.waitFor(async () => expect((await seqs(app, 'busy')).at(-1)).toBe(24), { timeout: 20_000, interval: 100 });
    const times = (await listAnchors(other, 'busy')).map((a) => Date.parse(a.created_at));
    expect(times.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < times.length; i += 1) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(600);
  });

  it('a closed app anchors nothing more (the timer is cleared) and the interval 0 disables anchoring', async () => {
    const { app } = t();
    startAnchorScheduler(app);
    const before = tsa.requests();
    await seedChain(app, 'c', 6);
    await app.close(); // closes before the first tick (the batch delay is 600 ms)
    await sleep(1_500);
    expect(tsa.requests()).toBe(before);

    const disabled = off().app;
    startAnchorScheduler(disabled);
    await seedChain(disabled, 'o', 6);
    await sleep(1_500);
    expect(await listAnchors(disabled, 'o')).toEqual([]);
  });
});
