import { z } from 'zod';
import { GENESIS_HASH } from '../audit/chain.ts';
import type { SegmentSummary } from './segment-pass.ts';

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);
const seqSchema = z.number().int().positive();

/** chain_proof.json as a verifier parses it (size-capped before parsing). */
export const chainProofSchema = z.object({
  schema_version: z.literal(1),
  project_id: z.string(),
  algorithm: z.string(),
  genesis_hash: hex64,
  witnesses: z.array(z.object({ seq: seqSchema, hash: hex64, prev_hash: hex64 }).strict()),
  record_count: z.number().int().nonnegative(),
  witness_count: z.number().int().nonnegative(),
  segment: z.object({ first_seq: seqSchema, last_seq: seqSchema, anchor_prev_hash: hex64, head_hash: hex64 }).nullable(),
  verification: z.object({ valid: z.boolean(), checked: z.number().int(), errors: z.array(z.string()) }),
});
export type ChainProof = z.infer<typeof chainProofSchema>;

export const chainAlgorithm = 'sha256(prev_hash || JCS(record without hash)), lowercase hex';

/** chain_proof.json up to the opening of its witness list; the segment pass then writes the witnesses. */
export const chainProofHead = (projectId: string): string =>
  `{"schema_version":1,"project_id":${JSON.stringify(projectId)},"algorithm":${JSON.stringify(chainAlgorithm)}` +
  `,"genesis_hash":"${GENESIS_HASH}","witnesses":[`;

/** The rest of chain_proof.json after the witnesses: the segment ends and the builder's verification result. */
export const chainProofTail = (segment: SegmentSummary): string =>
  `],"record_count":${segment.records},"witness_count":${segment.witnesses},"segment":${JSON.stringify(segment.segment)}` +
  `,"verification":${JSON.stringify(segment.verification)}}`;
