import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { databasePerTest, testBackends } from '../../test-support/backends.ts';
import { issueLoginLink, loginLinkTtlMs, redeemLoginLink } from './store.ts';

const t0 = new Date('2026-11-22T12:00:00.000Z');
const later = (ms: number): Date => new Date(t0.getTime() + ms);
const stored = z.object({ digest: z.string(), expires_at: z.string() });

// The pattern for every storage domain: the same tests on each back end, a fresh database per test.
describe.each(testBackends)('one-time login links on $name', (backend) => {
  const t = databasePerTest(backend);

  it('a link signs in once, before it expires; stored only as its SHA-256', async () => {
    const token = await issueLoginLink(t().database, t0);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const rows = await t().database.all(stored, 'SELECT digest, expires_at FROM login_links');
    expect(rows).toEqual([{ digest: createHash('sha256').update(token).digest('hex'), expires_at: later(loginLinkTtlMs).toISOString() }]);
    expect(await redeemLoginLink(t().database, `${token}x`, later(1))).toBe(false);
    expect(await redeemLoginLink(t().database, token, later(1000))).toBe(true);
    expect(await redeemLoginLink(t().database, token, later(2000))).toBe(false);
  });

  it('an expired link is refused, and issuing clears expired ones', async () => {
    const old = await issueLoginLink(t().database, t0);
    expect(await redeemLoginLink(t().database, old, later(loginLinkTtlMs))).toBe(false);
    await issueLoginLink(t().database, later(loginLinkTtlMs + 1));
    expect(await t().database.all(stored, 'SELECT digest, expires_at FROM login_links')).toHaveLength(1);
  });

  it('redeemed from two instances at once, a link signs in exactly once', async () => {
    const instances = [t().database, await t().connect()];
    for (let round = 0; round < 5; round++) {
      const token = await issueLoginLink(t().database, t0);
      const attempts = await Promise.all(instances.flatMap((db) => [1, 2, 3].map(() => redeemLoginLink(db, token, later(1)))));
      expect(attempts.filter(Boolean), `round ${round}`).toHaveLength(1);
    }
  });
});
