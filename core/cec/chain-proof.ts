import { z } from 'zod';
import { createReadStream } from 'node:fs';
import { GENESIS_HASH } from '../audit/chain.ts';
import type { SegmentResult } from './segment-pass.ts';

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

/**
 * Streams chain_proof.json from a collected segment: the witnesses (already written, comma-separated, to a
 * temp file) between a header and a trailer carrying the segment ends and the builder's verification result.
 */
export async function* chainProofChunks(projectId: string, segment: SegmentResult): AsyncGenerator<string | Buffer> {
  yield `{"schema_version":1,"project_id":${JSON.stringify(projectId)},"algorithm":${JSON.stringify(chainAlgorithm)}`;
  yield `,"genesis_hash":"${GENESIS_HASH}","witnesses":[`;
  for await (const chunk of createReadStream(segment.witnessFile, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
  yield `],"record_count":${segment.records},"witness_count":${segment.witnesses},"segment":${JSON.stringify(segment.segment)}`;
  yield `,"verification":${JSON.stringify(segment.verification)}}`;
}
