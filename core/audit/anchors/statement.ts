import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jcs } from '../chain.ts';

/** Domain separation: an anchor statement can never be mistaken for another signed JSON of the product. */
export const anchorType = 'svc.audit.anchor.v1';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

/** How a chain head is anchored: an RFC 3161 token from a TSA, or (no TSA) an Ed25519-signed checkpoint. */
export const anchorKinds = ['rfc3161', 'ed25519'] as const;
export type AnchorKind = (typeof anchorKinds)[number];

/**
 * One anchor as stored, listed, exported and carried in bundles. `token` is base64 of the token bytes: the
 * TSA's TimeStampResp DER (rfc3161) or the ASCII compact JWS (ed25519). `created_at` is the producer's clock.
 */
export const anchorSchema = z.strictObject({
  project_id: z.string().min(1).max(128),
  seq: z.number().int().positive(),
  head_hash: hex64,
  kind: z.enum(anchorKinds),
  token: z
    .string()
    .max(350_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  created_at: z.string().max(40),
});
export type Anchor = z.infer<typeof anchorSchema>;

/**
 * The canonical anchor statement: RFC 8785 JCS of `{type, project_id, seq, head_hash}`. The RFC 3161 message
 * imprint is SHA-256 of these bytes, so a token commits to exactly one head of exactly one project's chain.
 */
export const anchorStatement = (projectId: string, seq: number, headHash: string): string =>
  jcs({ type: anchorType, project_id: projectId, seq, head_hash: headHash });

export const anchorImprint = (projectId: string, seq: number, headHash: string): Buffer =>
  createHash('sha256')
    .update(anchorStatement(projectId, seq, headHash), 'utf8')
    .digest();

/**
 * Payload of an Ed25519 checkpoint's JWS: the statement plus `anchored_at`, the producer's clock when signing.
 * The time is only the producer's word (weaker than a TSA's genTime): docs/auditor/ANCHORING.md.
 */
export const checkpointPayloadSchema = z.strictObject({
  type: z.literal(anchorType),
  project_id: z.string(),
  seq: z.number().int().positive(),
  head_hash: hex64,
  anchored_at: z.string().max(40),
});
export type CheckpointPayload = z.infer<typeof checkpointPayloadSchema>;

export const checkpointPayload = (projectId: string, seq: number, headHash: string, anchoredAt: string): string =>
  jcs({ type: anchorType, project_id: projectId, seq, head_hash: headHash, anchored_at: anchoredAt });
