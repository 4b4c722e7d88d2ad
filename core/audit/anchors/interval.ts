import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Queryable } from '../../store/database.ts';
import { type ChainHead, insertAnchor, latestAnchor, makeAnchor, readHead } from './store.ts';

/**
 * How long a claim keeps other instances from anchoring a project. The claimer's TSA call gives up after 15 s
 * (tsa-http.ts); a claimer that died mid-call (kill -9, lost machine) holds the project no longer than this.
 */
export const claimLeaseMs = 120_000;

/** What one scheduled attempt did for a project. */
export type ScheduledOutcome =
  | { readonly kind: 'anchored'; readonly seq: number }
  /** No records, or the head has not moved since the latest anchor. */
  | { readonly kind: 'current' }
  /** Anchored less than an interval ago (by any instance): due again at `dueAt`. */
  | { readonly kind: 'recent'; readonly dueAt: number }
  /** Another instance holds a live claim: it is anchoring right now. */
  | { readonly kind: 'claimed' };

export type AnchorClaim = { readonly claimId: string; readonly head: ChainHead; readonly at: string };

const leaseRow = z.object({ lease_until: z.string() });

/**
 * Decides, serialised per project across every instance on the database, whether this instance anchors now; if
 * so records a claim with a lease and returns it. Only database calls in here (the TSA call comes after, outside).
 */
export const claimAnchoring = (app: App, projectId: string, intervalMs: number): Promise<AnchorClaim | ScheduledOutcome> => {
  const now = app.now();
  const at = now.toISOString();
  return app.database.serialized(`anchor:${projectId}`, async (tx) => {
    const head = await readHead(tx, projectId);
    if (head === undefined) return { kind: 'current' };
    const latest = await latestAnchor(tx, projectId);
    if (latest !== undefined && latest.seq >= head.head_seq) return { kind: 'current' };
    const dueAt = latest === undefined ? 0 : Date.parse(latest.created_at) + intervalMs;
    if (dueAt > now.getTime()) return { kind: 'recent', dueAt };
    const held = await tx.one(leaseRow, 'SELECT lease_until FROM anchor_claims WHERE project_id = ?', [projectId]);
    if (held !== undefined && held.lease_until > at) return { kind: 'claimed' };
    const claimId = randomUUID();
    await tx.run(
      `INSERT INTO anchor_claims (project_id, claim_id, claimed_at, lease_until) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET claim_id = excluded.claim_id, claimed_at = excluded.claimed_at, lease_until = excluded.lease_until`,
      [projectId, claimId, at, new Date(now.getTime() + claimLeaseMs).toISOString()],
    );
    return { claimId, head, at };
  });
};

/** Ends our own claim only: after a lease expired, the row may be another instance's. */
const releaseClaim = (tx: Queryable, projectId: string, claimId: string) =>
  tx.run('DELETE FROM anchor_claims WHERE project_id = ? AND claim_id = ?', [projectId, claimId]);

/**
 * The scheduler's attempt for one project: anchors the head unless it has not moved, the project was anchored
 * less than `intervalMs` ago, or another instance is anchoring it now. Several instances on one database, each
 * ticking, so produce one anchor per project per interval: (1) claim inside `serialized('anchor:'+project)`,
 * (2) the TSA call outside any transaction, (3) store the anchor and release the claim in one transaction.
 * @throws AppError UNAVAILABLE when the TSA fails (the claim is released; the next interval retries).
 */
export const anchorOnSchedule = async (app: App, projectId: string, intervalMs: number): Promise<ScheduledOutcome> => {
  const claimed = await claimAnchoring(app, projectId, intervalMs);
  if (!('claimId' in claimed)) return claimed;
  try {
    const anchor = await makeAnchor(app, projectId, claimed.head, claimed.at);
    // Under the same key as the claim: a claimer's reads (latest anchor, then claim) never straddle this commit.
    const stored = await app.database.serialized(`anchor:${projectId}`, async (tx) => {
      // Stored even if the lease ran out meanwhile: a valid anchor of a real head is never thrown away.
      const inserted = await insertAnchor(tx, anchor);
      await releaseClaim(tx, projectId, claimed.claimId);
      return inserted;
    });
    if (!stored) return { kind: 'current' };
    app.log.info({ projectId, seq: anchor.seq, kind: anchor.kind }, 'chain head anchored');
    return { kind: 'anchored', seq: anchor.seq };
  } catch (error) {
    // Best effort: if even this fails (database down), the lease expires on its own.
    await app.database.serialized(`anchor:${projectId}`, (tx) => releaseClaim(tx, projectId, claimed.claimId)).catch(() => undefined);
    throw error;
  }
};

/** Projects whose chain head moved past their latest anchor (or that were never anchored). */
export const unanchoredProjects = async (app: App): Promise<string[]> =>
  (
    await app.database.all(
      z.object({ project_id: z.string() }),
      `SELECT h.project_id FROM audit_chain_heads h
       WHERE h.head_seq > COALESCE((SELECT max(a.seq) FROM audit_anchors a WHERE a.project_id = h.project_id), 0)
       ORDER BY h.project_id`,
    )
  ).map((row) => row.project_id);
