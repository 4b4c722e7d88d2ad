import { describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { anchoringLag } from './lag.ts';
import { anchorSchema } from './statement.ts';
import { anchorHead, firstAnchorAfter, latestAnchor, listAnchors } from './store.ts';
import { seedChain } from './test-support.ts';

let clock = new Date('2026-10-01T08:00:00.000Z');

describe.each(testBackends)('anchor store on $name', (backend) => {
  const t = appPerTest(backend, { now: () => clock });

  it('anchors a moved head once, answers with the existing anchor when it has not moved, and lists in seq order', async () => {
    const { app } = t();
    expect(await anchorHead(app, 'p')).toEqual({ created: false, anchor: null });
    const head = await seedChain(app, 'p', 3);
    const first = await anchorHead(app, 'p');
    expect(first).toMatchObject({ created: true, anchor: { project_id: 'p', seq: 3, head_hash: head.head_hash, kind: 'ed25519' } });
    expect(anchorSchema.parse(first.anchor)).toEqual(first.anchor);
    expect(await anchorHead(app, 'p')).toEqual({ created: false, anchor: first.anchor });
    await seedChain(app, 'p', 2);
    await anchorHead(app, 'p');
    await seedChain(app, 'other', 1);
    await anchorHead(app, 'other');

    expect((await listAnchors(app, 'p')).map((a) => a.seq)).toEqual([3, 5]);
    expect((await listAnchors(app, 'p', 4)).map((a) => a.seq)).toEqual([5]);
    expect((await listAnchors(app, 'p', 1, 4)).map((a) => a.seq)).toEqual([3]);
    expect((await listAnchors(app, 'p', 1, Number.MAX_SAFE_INTEGER, 1)).map((a) => a.seq)).toEqual([3]);
    expect((await firstAnchorAfter(app, 'p', 3))?.seq).toBe(5);
    expect(await firstAnchorAfter(app, 'p', 5)).toBeUndefined();
    expect((await latestAnchor(app.database, 'p'))?.seq).toBe(5);
    expect(await listAnchors(app, 'nobody')).toEqual([]);
  });

  it('two instances anchoring the same head on demand at once store one anchor, and both answer with it', async () => {
    const { app } = t();
    const other = await t().second();
    await seedChain(app, 'p', 4);
    const outcomes = await Promise.all([anchorHead(app, 'p'), anchorHead(other, 'p'), anchorHead(app, 'p'), anchorHead(other, 'p')]);
    const stored = await listAnchors(other, 'p');
    expect(stored).toHaveLength(1);
    expect(outcomes.filter((o) => o.created).length).toBeGreaterThanOrEqual(1);
    for (const outcome of outcomes) expect(outcome.anchor?.seq).toBe(4);
    // Whoever lost the insert answers with the stored anchor, not its own discarded one.
    for (const outcome of outcomes.filter((o) => !o.created)) expect(outcome.anchor).toEqual(stored[0]);
  });

  it('the lag counts the records after the latest anchor and how long the oldest of them has waited', async () => {
    const { app } = t();
    expect(await anchoringLag(app, 'p', undefined)).toBeNull();
    const start = clock;
    try {
      await seedChain(app, 'p', 2);
      expect(await anchoringLag(app, 'p', { head_seq: 2 })).toEqual({
        anchored_seq: null,
        anchored_at: null,
        kind: null,
        lag_records: 2,
        lag_seconds: 0,
      });
      await anchorHead(app, 'p');
      clock = new Date(start.getTime() + 60_000);
      await seedChain(app, 'p', 3);
      clock = new Date(start.getTime() + 150_000);
      expect(await anchoringLag(app, 'p', { head_seq: 5 })).toEqual({
        anchored_seq: 2,
        anchored_at: start.toISOString(),
        kind: 'ed25519',
        lag_records: 3,
        lag_seconds: 90,
      });
    } finally {
      clock = start;
    }
  });
});
