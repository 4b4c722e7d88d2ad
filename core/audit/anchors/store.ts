import type { App } from '../../app.ts';
import { service } from '../../app.ts';
import { attestationKey, signJws } from '../../cec/ed25519.ts';
import { createTimestamp } from '../../cec/timestamp/index.ts';
import { AppError } from '../../errors.ts';
import { type Anchor, type AnchorKind, anchorImprint, checkpointPayload } from './statement.ts';

const columns = 'project_id, seq, head_hash, kind, token, created_at';

const statements = (app: App) => ({
  head: app.db.prepare<[string], { head_seq: number; head_hash: string }>(
    'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?',
  ),
  latest: app.db.prepare<[string], Anchor>(`SELECT ${columns} FROM audit_anchors WHERE project_id = ? ORDER BY seq DESC LIMIT 1`),
  insert: app.db.prepare<[string, number, string, string, string, string]>(
    `INSERT OR IGNORE INTO audit_anchors (${columns}) VALUES (?, ?, ?, ?, ?, ?)`,
  ),
  range: app.db.prepare<[string, number, number, number], Anchor>(
    `SELECT ${columns} FROM audit_anchors WHERE project_id = ? AND seq >= ? AND seq <= ? ORDER BY seq LIMIT ?`,
  ),
  firstAfter: app.db.prepare<[string, number], Anchor>(
    `SELECT ${columns} FROM audit_anchors WHERE project_id = ? AND seq > ? ORDER BY seq LIMIT 1`,
  ),
});
const anchorStatements = (app: App) => service(app, 'audit.anchorStatements', statements);

/** Token bytes over the head: a TSA token when one is configured, else an Ed25519 checkpoint (weaker). */
const tokenFor = async (
  app: App,
  projectId: string,
  seq: number,
  headHash: string,
  now: string,
): Promise<{ kind: AnchorKind; token: Buffer }> => {
  if (app.settings.get().tsaUrl === '') {
    const key = await attestationKey(app);
    const jws = await signJws(key, Buffer.from(checkpointPayload(projectId, seq, headHash, now)));
    return { kind: 'ed25519', token: Buffer.from(jws, 'ascii') };
  }
  try {
    const stamp = await createTimestamp(app, anchorImprint(projectId, seq, headHash));
    return { kind: 'rfc3161', token: stamp.token };
  } catch (error) {
    throw new AppError('UNAVAILABLE', `Anchoring ${projectId} failed: ${(error as Error).message}`, { cause: error });
  }
};

export type AnchorOutcome = { readonly created: boolean; readonly anchor: Anchor | null };

/**
 * Anchors the project's current chain head. Returns the existing anchor (created: false) when the head has not
 * moved since the last one, and `anchor: null` when the project has no records.
 * @throws AppError UNAVAILABLE when the configured TSA fails (nothing is stored).
 */
export const anchorHead = async (app: App, projectId: string): Promise<AnchorOutcome> => {
  const st = anchorStatements(app);
  const head = st.head.get(projectId);
  if (head === undefined) return { created: false, anchor: null };
  const latest = st.latest.get(projectId);
  if (latest !== undefined && latest.seq >= head.head_seq) return { created: false, anchor: latest };
  const createdAt = app.now().toISOString();
  const { kind, token } = await tokenFor(app, projectId, head.head_seq, head.head_hash, createdAt);
  const anchor: Anchor = {
    project_id: projectId,
    seq: head.head_seq,
    head_hash: head.head_hash,
    kind,
    token: token.toString('base64'),
    created_at: createdAt,
  };
  // A concurrent anchor of the same head (scheduler and button at once) keeps the first one stored.
  const inserted = st.insert.run(anchor.project_id, anchor.seq, anchor.head_hash, anchor.kind, anchor.token, anchor.created_at);
  app.log.info({ projectId, seq: anchor.seq, kind }, 'chain head anchored');
  return inserted.changes > 0
    ? { created: true, anchor }
    : { created: false, anchor: st.range.get(projectId, anchor.seq, anchor.seq, 1) ?? anchor };
};

/** Anchors of a project with fromSeq <= seq <= toSeq, in seq order, at most `limit`. */
export const listAnchors = (app: App, projectId: string, fromSeq = 1, toSeq = Number.MAX_SAFE_INTEGER, limit = 1_000_000): Anchor[] =>
  anchorStatements(app).range.all(projectId, fromSeq, toSeq, limit);

/** The first anchor strictly after `seq`, if any. */
export const firstAnchorAfter = (app: App, projectId: string, seq: number): Anchor | undefined =>
  anchorStatements(app).firstAfter.get(projectId, seq);

/** The latest anchored seq of a project (0 when never anchored). */
export const latestAnchor = (app: App, projectId: string): Anchor | undefined => anchorStatements(app).latest.get(projectId);
