import { z } from 'zod';
import type { App } from '../app.ts';
import { anchorSchema, anchorType } from '../audit/anchors/statement.ts';
import { firstAnchorAfter, listAnchors } from '../audit/anchors/store.ts';
import { auditStatements } from '../audit/store.ts';
import type { ChainLink } from './chain-link.ts';
import type { SegmentResult } from './segment-pass.ts';

/** Longest bridge (witnesses after the segment up to the next anchor) a bundle carries; beyond it the anchor is left out. */
export const maxBridgeLinks = 100_000;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const link = z.strictObject({ seq: z.number().int().positive(), hash: hex64, prev_hash: hex64 });

/** anchors.json as a verifier parses it (size-capped before parsing). */
export const anchorsFileSchema = z.strictObject({
  schema_version: z.literal(1),
  project_id: z.string(),
  statement: z.string(),
  anchors: z.array(anchorSchema).max(maxBridgeLinks),
  bridge: z.array(link).max(maxBridgeLinks),
});
export type AnchorsFile = z.infer<typeof anchorsFileSchema>;

export const statementDescription = `RFC 3161 imprint = SHA-256(JCS({"type":"${anchorType}","project_id","seq","head_hash"})); Ed25519 checkpoints sign JCS of the same object plus "anchored_at"`;

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
