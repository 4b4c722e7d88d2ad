import type { App } from '../app.ts';
import { firstAnchorAfter, listAnchors } from '../audit/anchors/store.ts';
import { auditStatements } from '../audit/store.ts';
import { type AnchorsFile, maxBridgeLinks, statementDescription } from './anchors-file.ts';
import type { ChainLink } from './chain-link.ts';
import type { SegmentResult } from './segment-pass.ts';

/**
 * The anchors a bundle carries for its chain segment first_seq..last_seq: those at first_seq-1 (checked against
 * the segment's anchor_prev_hash), those inside (checked against the re-derived hash at their seq), and the
 * first one after the segment with the hash-only bridge that links the segment head to it, so the segment's
 * last records are anchored too. Anchors further out prove nothing the bundle can check and are left out.
 */
export const bundleAnchors = (app: App, projectId: string, segment: SegmentResult['segment']): AnchorsFile => {
  const file: AnchorsFile = { schema_version: 1, project_id: projectId, statement: statementDescription, anchors: [], bridge: [] };
  if (segment === null) return file;
  file.anchors.push(...listAnchors(app, projectId, Math.max(1, segment.first_seq - 1), segment.last_seq));
  const after = firstAnchorAfter(app, projectId, segment.last_seq);
  if (after === undefined || after.seq - segment.last_seq > maxBridgeLinks) return file;
  const bridge: ChainLink[] = [];
  const rows = auditStatements(app).chain.all(projectId, segment.last_seq + 1, after.seq, maxBridgeLinks);
  for (const row of rows) bridge.push({ seq: row.seq, hash: row.hash, prev_hash: row.prev_hash });
  file.anchors.push(after);
  file.bridge.push(...bridge);
  return file;
};
