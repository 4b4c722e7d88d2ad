import { z } from 'zod';
import type { App } from '../../app.ts';
import type { AnchorKind } from './statement.ts';
import { latestAnchor } from './store.ts';

/** How far a project's chain head is ahead of its latest anchor. */
export type AnchoringLag = {
  /** The latest anchor, or null when the project was never anchored. */
  readonly anchored_seq: number | null;
  readonly anchored_at: string | null;
  readonly kind: AnchorKind | null;
  /** Records appended after the latest anchor: a rewrite of these is not yet detectable. */
  readonly lag_records: number;
  /** How long the oldest of those records has waited for an anchor (0 when none waits). */
  readonly lag_seconds: number;
};

const recordedRow = z.object({ recorded_at: z.string() });

/** The anchoring lag of a project's chain up to its head (which the caller has read), or null without records. */
export const anchoringLag = async (
  app: App,
  projectId: string,
  head: { readonly head_seq: number } | undefined,
): Promise<AnchoringLag | null> => {
  if (head === undefined) return null;
  const anchor = await latestAnchor(app.database, projectId);
  const anchoredSeq = anchor?.seq ?? 0;
  // audit_records belongs to the evidence chain; the lag only reads the first record no anchor covers.
  const oldestWaiting = await app.database.one(recordedRow, 'SELECT recorded_at FROM audit_records WHERE project_id = ? AND seq = ?', [
    projectId,
    anchoredSeq + 1,
  ]);
  const lagSeconds =
    oldestWaiting === undefined ? 0 : Math.max(0, Math.round((app.now().getTime() - Date.parse(oldestWaiting.recorded_at)) / 1000));
  return {
    anchored_seq: anchor?.seq ?? null,
    anchored_at: anchor?.created_at ?? null,
    kind: anchor?.kind ?? null,
    lag_records: head.head_seq - anchoredSeq,
    lag_seconds: lagSeconds,
  };
};
