import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../../store/database.ts';

/**
 * One-time login links (the break-glass sign-in `svc serve` prints), on the asynchronous Database: the pilot
 * domain of the PostgreSQL move, and shared by every instance on one database. Only the SHA-256 of a token is
 * stored; a token carries 256 random bits, so looking it up by its digest reveals nothing a timing attack could
 * use. Redeeming is one `DELETE ... RETURNING`: of any number of concurrent redeemers, on any instance, exactly
 * one gets the row.
 */
export const loginLinkTtlMs = 10 * 60 * 1000;

const digestOf = (token: string): string => createHash('sha256').update(token).digest('hex');
const redeemed = z.object({ digest: z.string() });

/** A new link token valid for `ttlMs` from `now`; expired links are cleared on the way. */
export const issueLoginLink = async (db: Database, now: Date, ttlMs = loginLinkTtlMs): Promise<string> => {
  const token = randomBytes(32).toString('base64url');
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM login_links WHERE expires_at <= ?', [now.toISOString()]);
    await tx.run('INSERT INTO login_links (digest, expires_at) VALUES (?, ?)', [
      digestOf(token),
      new Date(now.getTime() + ttlMs).toISOString(),
    ]);
  });
  return token;
};

/** True once for a valid, unexpired token; false for anything else, including a second use. */
export const redeemLoginLink = async (db: Database, token: string, now: Date): Promise<boolean> => {
  const row = await db.one(redeemed, 'DELETE FROM login_links WHERE digest = ? AND expires_at > ? RETURNING digest', [
    digestOf(token),
    now.toISOString(),
  ]);
  return row !== undefined;
};
