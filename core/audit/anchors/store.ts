import { z } from 'zod';
import type { App } from '../../app.ts';
import { attestationKey, signJws } from '../../cec/ed25519.ts';
import { createTimestamp } from '../../cec/timestamp/index.ts';
import { AppError } from '../../errors.ts';
import type { Queryable } from '../../store/database.ts';
import { type Anchor, type AnchorKind, anchorImprint, anchorSchema, checkpointPayload } from './statement.ts';
import { boundLimit } from '../../store/sql-text.ts';

const columns = 'project_id, seq, head_hash, kind, token, created_at';

/** A project's chain head (audit_chain_heads belongs to the evidence chain; anchoring only reads it). */
export type ChainHead = { readonly head_seq: number; readonly head_hash: string };
const headRow = z.object({ head_seq: z.number().int(), head_hash: z.string() });

export const readHead = (db: Queryable, projectId: string): Promise<ChainHead | undefined> =>
  db.one(headRow, 'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?', [projectId]);

/** The project's latest anchor (highest seq), if any. */
export const latestAnchor = (db: Queryable, projectId: string): Promise<Anchor | undefined> =>
  db.one(anchorSchema, `SELECT ${columns} FROM audit_anchors WHERE project_id = ? ORDER BY seq DESC LIMIT 1`, [projectId]);

/** Token bytes over the head: a TSA token when one is configured, else an Ed25519 checkpoint (weaker). */
const tokenFor = async (app: App, projectId: string, head: ChainHead, now: string): Promise<{ kind: AnchorKind; token: Buffer }> => {
  if (app.settings.get().tsaUrl === '') {
    const key = await attestationKey(app);
    const jws = await signJws(key, Buffer.from(checkpointPayload(projectId, head.head_seq, head.head_hash, now)));
    return { kind: 'ed25519', token: Buffer.from(jws, 'ascii') };
  }
  try {
    const stamp = await createTimestamp(app, anchorImprint(projectId, head.head_seq, head.head_hash));
    return { kind: 'rfc3161', token: stamp.token };
  } catch (error) {
    throw new AppError('UNAVAILABLE', `Anchoring ${projectId} failed: ${(error as Error).message}`, { cause: error });
  }
};

/**
 * The anchor of `head`, timestamped (TSA) or signed (Ed25519) now. Calls the TSA: never inside a transaction.
 * @throws AppError UNAVAILABLE when the configured TSA fails.
 */
export const makeAnchor = async (app: App, projectId: string, head: ChainHead, createdAt: string): Promise<Anchor> => {
  const { kind, token } = await tokenFor(app, projectId, head, createdAt);
  return {
    project_id: projectId,
    seq: head.head_seq,
    head_hash: head.head_hash,
    kind,
    token: token.toString('base64'),
    created_at: createdAt,
  };
};

/** Stores an anchor; false when one of the same (project, seq) was stored first (that one is kept). */
export const insertAnchor = async (db: Queryable, anchor: Anchor): Promise<boolean> =>
  (await db.run(`INSERT INTO audit_anchors (${columns}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (project_id, seq) DO NOTHING`, [
    anchor.project_id,
    anchor.seq,
    anchor.head_hash,
    anchor.kind,
    anchor.token,
    anchor.created_at,
  ])) > 0;

export type AnchorOutcome = { readonly created: boolean; readonly anchor: Anchor | null };

/**
 * Anchors the project's current chain head now (the button, `svc anchor`, `POST /v1/audit/anchors/:id`).
 * Returns the existing anchor (created: false) when the head has not moved since the last one, and
 * `anchor: null` when the project has no records. Not bound by the interval: the user asked for it now.
 * @throws AppError UNAVAILABLE when the configured TSA fails (nothing is stored).
 */
export const anchorHead = async (app: App, projectId: string): Promise<AnchorOutcome> => {
  const head = await readHead(app.database, projectId);
  if (head === undefined) return { created: false, anchor: null };
  const latest = await latestAnchor(app.database, projectId);
  if (latest !== undefined && latest.seq >= head.head_seq) return { created: false, anchor: latest };
  const anchor = await makeAnchor(app, projectId, head, app.now().toISOString());
  // A concurrent anchor of the same head (scheduler and button at once, or two instances) keeps the first one.
  // Under the scheduler's key, so a scheduled claim never reads around this insert (interval.ts).
  const created = await app.database.serialized(`anchor:${projectId}`, (tx) => insertAnchor(tx, anchor));
  app.log.info({ projectId, seq: anchor.seq, kind: anchor.kind }, 'chain head anchored');
  if (created) return { created: true, anchor };
  return { created: false, anchor: (await listAnchors(app, projectId, anchor.seq, anchor.seq, 1))[0] ?? anchor };
};

/** Anchors of a project with fromSeq <= seq <= toSeq, in seq order, at most `limit`. */
export const listAnchors = (
  app: App,
  projectId: string,
  fromSeq = 1,
  toSeq = Number.MAX_SAFE_INTEGER,
  limit = 1_000_000,
): Promise<Anchor[]> =>
  app.database.all(
    anchorSchema,
    `SELECT ${columns} FROM audit_anchors WHERE project_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ${boundLimit}`,
    [projectId, fromSeq, toSeq, limit],
  );

/** The first anchor strictly after `seq`, if any. */
export const firstAnchorAfter = (app: App, projectId: string, seq: number): Promise<Anchor | undefined> =>
  app.database.one(anchorSchema, `SELECT ${columns} FROM audit_anchors WHERE project_id = ? AND seq > ? ORDER BY seq LIMIT 1`, [
    projectId,
    seq,
  ]);
