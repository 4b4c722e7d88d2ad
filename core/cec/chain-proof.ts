import { z } from 'zod';
import type { App } from '../app.ts';
import { computeRecordHash, GENESIS_HASH } from '../audit/chain.ts';
import { iterateChain } from '../audit/store.ts';
import type { EvidenceRecord } from '../audit/types.ts';
import { ChainLinker } from './chain-link.ts';
import { inDateRange } from './dates.ts';
import type { DateRange } from './types.ts';

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

export type SegmentBounds = { readonly firstSeq: number; readonly lastSeq: number } | null;

/** Re-hashes one stored record, returning an error message or null. */
export const recordHashError = (record: EvidenceRecord, label: string): string | null => {
  const { hash, ...rest } = record;
  return computeRecordHash(rest) === hash ? null : `chain: ${label} hash does not match its content`;
};

/**
 * Streams chain_proof.json for the segment between the first and last in-range records: every out-of-range
 * record of the segment becomes a hash-only witness; every record is re-hashed and re-linked on the way, and
 * the result of that verification closes the document (JSON key order is free, so it can come last).
 */
export async function* chainProofChunks(
  app: App,
  projectId: string,
  range: DateRange,
  bounds: SegmentBounds,
  expectedRecords: number,
): AsyncGenerator<string> {
  yield `{"schema_version":1,"project_id":${JSON.stringify(projectId)},"algorithm":${JSON.stringify(chainAlgorithm)}`;
  yield `,"genesis_hash":"${GENESIS_HASH}","witnesses":[`;
  const linker = new ChainLinker();
  let witnesses = 0;
  let records = 0;
  if (bounds !== null) {
    let batch: string[] = [];
    for (const record of iterateChain(app, projectId, bounds.firstSeq, bounds.lastSeq)) {
      const label = `seq ${record.seq}`;
      const hashError = recordHashError(record, label);
      if (hashError !== null) linker.fail(hashError);
      linker.push(record, label);
      if (inDateRange(record.timestamp, range)) {
        records += 1;
        continue;
      }
      batch.push(`${witnesses === 0 ? '' : ','}{"seq":${record.seq},"hash":"${record.hash}","prev_hash":"${record.prev_hash}"}`);
      witnesses += 1;
      if (batch.length >= 512) {
        yield batch.join('');
        batch = [];
      }
    }
    if (batch.length > 0) yield batch.join('');
    if (linker.lastSeq !== bounds.lastSeq) linker.fail(`chain: segment ends at seq ${linker.lastSeq} instead of ${bounds.lastSeq}`);
  }
  if (records !== expectedRecords) linker.fail(`chain: segment holds ${records} in-range records, folders ${expectedRecords}`);
  const segment =
    bounds === null
      ? null
      : { first_seq: bounds.firstSeq, last_seq: bounds.lastSeq, anchor_prev_hash: linker.firstPrevHash, head_hash: linker.lastHash };
  const verification = { valid: linker.errors.length === 0, checked: linker.count, errors: linker.errors };
  if (!verification.valid)
    app.log.warn({ projectId, errors: linker.errors.length }, 'evidence chain failed verification while building a bundle');
  yield `],"record_count":${records},"witness_count":${witnesses},"segment":${JSON.stringify(segment)},"verification":${JSON.stringify(verification)}}`;
}
