import { z } from 'zod';
import { anchorSchema, anchorType } from '../audit/anchors/statement.ts';

// The shape of a bundle's anchors.json, apart from the builder (bundle-anchors.ts) so the verifier loads no store.

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
