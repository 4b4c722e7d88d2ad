import { z } from 'zod';
import type { App } from '../app.ts';
import { firstAnchorAfter, listAnchors } from '../audit/anchors/store.ts';
import { type AnchorsFile, maxBridgeLinks, statementDescription } from './anchors-file.ts';
import type { ChainLink } from './chain-link.ts';
import type { SegmentResult } from './segment-pass.ts';
import { boundLimit } from '../store/sql-text.ts';

const linkRow = z.object({ seq: z.number().int(), hash: z.string(), prev_hash: z.string() });

/**
 * The anchors a bundle carries for its chain segment first_seq..last_seq: those at first_seq-1 (checked against
 * the segment's anchor_prev_hash), those inside (checked against the re-derived hash at their seq), and the
 * first one after the segment with the hash-only bridge that links the segment head to it, so the segment's
 * last records are anchored too. Anchors further out prove nothing the bundle can check and are left out.
 */
export const bundleAnchors = async (app: App, projectId: string, segment: SegmentResult['segment']): Promise<AnchorsFile> => {
  const file: AnchorsFile = { schema_version: 1, project_id: projectId, statement: statementDescription, anchors: [], bridge: [] };
  if (segment === null) return file;
  file.anchors.push(...(await listAnchors(app, projectId, Math.max(1, segment.first_seq - 1), segment.last_seq)));
  const after = await firstAnchorAfter(app, projectId, segment.last_seq);
  if (after === undefined || after.seq - segment.last_seq > maxBridgeLinks) return file;
  // The bridge's links only (seq, hashes), read from the evidence chain's table: no payloads.
  const bridge: ChainLink[] = await app.database.all(
    linkRow,
    `SELECT seq, hash, prev_hash FROM audit_records WHERE project_id = ? AND seq > ? AND seq <= ? ORDER BY seq LIMIT ${boundLimit}`,
    [projectId, segment.last_seq, after.seq, maxBridgeLinks],
  );
  file.anchors.push(after);
  file.bridge.push(...bridge);
  return file;
};
