import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { startTestTsa, type TestTsa } from '../../cec/timestamp/test-tsa.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { anchorOnSchedule, claimAnchoring, claimLeaseMs, type ScheduledOutcome, unanchoredProjects } from './interval.ts';
import { listAnchors } from './store.ts';
import { seedChain } from './test-support.ts';

// Scheduled anchoring across instances (issue 15): each `svc serve` ticks on its own timer; a project must still
// get one anchor per interval, and the TSA call runs outside any transaction. Real TSA (openssl ts over HTTP).
let tsa: TestTsa;
const env: NodeJS.ProcessEnv = {};
beforeAll(async () => {
  tsa = await startTestTsa();
  env.SVC_TSA_URL = tsa.url;
});
afterAll(() => tsa.close());

const intervalMs = 10 * 60_000;
const start = new Date('2026-10-01T08:00:00.000Z');
let clock = start;
const at = (ms: number) => {
  clock = new Date(start.getTime() + ms);
};
const claims = z.object({ n: z.number() });
const claimCount = async (app: App) => (await app.database.one(claims, 'SELECT count(*) AS n FROM anchor_claims'))?.n;

describe.each(testBackends)('anchoring once per interval across instances on $name', (backend) => {
  const t = appPerTest(backend, { env, now: () => clock });

  it('ticks of two instances at once for one project make one anchor and one TSA request per interval', async () => {
    at(0);
    const { app } = t();
    const other = await t().second();
    await seedChain(app, 'p', 5);
    const tickBoth = () => Promise.all(Array.from({ length: 8 }, (_, i) => anchorOnSchedule(i % 2 === 0 ? app : other, 'p', intervalMs)));
    const before = tsa.requests();

    const first = await tickBoth();
    expect(first.filter((o) => o.kind === 'anchored')).toEqual([{ kind: 'anchored', seq: 5 }]);
    expect((await listAnchors(other, 'p')).map((a) => [a.seq, a.kind])).toEqual([[5, 'rfc3161']]);
    expect(tsa.requests()).toBe(before + 1);
    expect(await claimCount(app)).toBe(0);

    // New records inside the interval: nobody anchors them yet, everyone learns when they are due.
    await seedChain(other, 'p', 3);
    at(4 * 60_000);
    const early = await tickBoth();
    expect(early).toEqual(Array<ScheduledOutcome>(8).fill({ kind: 'recent', dueAt: start.getTime() + intervalMs }));
    expect(await unanchoredProjects(app)).toEqual(['p']);

    at(intervalMs);
    const due = await tickBoth();
    expect(due.filter((o) => o.kind === 'anchored')).toEqual([{ kind: 'anchored', seq: 8 }]);
    expect((await listAnchors(app, 'p')).map((a) => a.seq)).toEqual([5, 8]);
    expect(tsa.requests()).toBe(before + 2);
    expect(await unanchoredProjects(other)).toEqual([]);

    // The head has not moved: nothing to do however much time passes.
    at(5 * intervalMs);
    expect(await tickBoth()).toEqual(Array<ScheduledOutcome>(8).fill({ kind: 'current' }));
    expect(tsa.requests()).toBe(before + 2);
  });

  it('a claimer that died mid-call holds the project until its lease expires; then another instance anchors', async () => {
    at(0);
    const { app } = t();
    const survivor = await t().second();
    await seedChain(app, 'p', 2);
    // The first instance claims, then dies before its TSA call returns: its claim stays behind.
    const claim = await claimAnchoring(app, 'p', intervalMs);
    expect(claim).toMatchObject({ head: { head_seq: 2 } });
    at(claimLeaseMs - 1_000);
    expect(await anchorOnSchedule(survivor, 'p', intervalMs)).toEqual({ kind: 'claimed' });
    expect(await listAnchors(survivor, 'p')).toEqual([]);
    at(claimLeaseMs + 1_000);
    expect(await anchorOnSchedule(survivor, 'p', intervalMs)).toEqual({ kind: 'anchored', seq: 2 });
    expect((await listAnchors(app, 'p')).map((a) => a.seq)).toEqual([2]);
    expect(await claimCount(app)).toBe(0);
  });

  it('a failing TSA stores nothing and releases the claim, so the next tick retries at once', async () => {
    at(0);
    const { app } = t();
    await seedChain(app, 'p', 1);
    tsa.setMode('http-error');
    try {
      await expect(anchorOnSchedule(app, 'p', intervalMs)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect(await claimCount(app)).toBe(0);
      expect(await listAnchors(app, 'p')).toEqual([]);
    } finally {
      tsa.setMode('normal');
    }
    expect(await anchorOnSchedule(app, 'p', intervalMs)).toEqual({ kind: 'anchored', seq: 1 });
  });
});
