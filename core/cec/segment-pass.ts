import { join } from 'node:path';
import type { App } from '../app.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import type { ChainLinker } from './chain-link.ts';
import { chainProofHead, chainProofTail } from './chain-proof.ts';
import type { EvidenceTally } from './clauses/evidence-tally.ts';
import { type DeflatedFile, DeflatingFile } from './deflating-file.ts';
import { passRange, type RangeTotals, rowsPerPage } from './range-pass.ts';
import { splitPageRows } from './segment-part.ts';
import { joinUpperPart, segmentWorkerRecords, splitSeq, startUpperPart } from './segment-split.ts';
import type { DateRange } from './types.ts';
import { ChunkPool } from './utf8-chunks.ts';

const progressEvery = 25_000;

/** What the pass learnt about the chain segment; chain_proof.json carries it. */
export type SegmentSummary = {
  readonly records: number;
  readonly witnesses: number;
  readonly segment: { first_seq: number; last_seq: number; anchor_prev_hash: string; head_hash: string } | null;
  readonly verification: { valid: boolean; checked: number; errors: string[] };
};

export type SegmentResult = SegmentSummary & {
  readonly counts: Record<SchemaKey, number>;
  /** The deflated bodies of each key's records.ndjson and of chain_proof.json. */
  readonly recordFiles: Record<SchemaKey, DeflatedFile>;
  readonly chainProof: DeflatedFile;
  /** The seq after which a worker read the segment (null: this thread read all of it). */
  readonly splitAfter: number | null;
};

/**
 * One pass over the project's chain segment in seq order (range-pass.ts): in-range records go to their schema
 * key's NDJSON entry, the out-of-range records in the gaps between them become hash-only witnesses in the chain
 * proof, and every record is re-hashed and re-linked on the way. Each entry is deflated (at `level`) on the
 * thread pool as it is written, so compression overlaps the pass. From `splitFrom` in-range records a worker
 * takes the upper half of the seqs (segment-split.ts); the entries' bytes are the same either way. Reading
 * stored rows without re-parsing payloads keeps this pass cheap; the bundle verifier re-derives everything from
 * parsed JSON, so the two paths check each other.
 */
export const collectSegment = async (
  app: App,
  projectId: string,
  range: DateRange,
  workDir: string,
  level: number,
  hooks: {
    /** In-range records expected (countEvidence): whether a worker pays for itself. */
    readonly records?: number | undefined;
    /** Where the split starts paying (segmentWorkerRecords; tests force either way). */
    readonly splitFrom?: number | undefined;
    /** Runs once the worker (if any) has started, before this thread's part: work that need not delay it. */
    readonly beforePass?: (() => Promise<void>) | undefined;
    /** Sees every in-range row once (the clause map's tally, clauses/evidence-tally.ts). */
    readonly tally?: EvidenceTally | null | undefined;
    readonly onProgress?: ((done: number, message: string) => void) | undefined;
  } = {},
): Promise<SegmentResult> => {
  const { tally = null, onProgress } = hooks;
  const pool = new ChunkPool();
  const files = Object.fromEntries(
    schemaKeys.map((key) => [key, new DeflatingFile(join(workDir, `${key}.ndjson.deflate`), level, pool)]),
  ) as Record<SchemaKey, DeflatingFile>;
  const witnessFile = new DeflatingFile(join(workDir, 'chain_proof.json.deflate'), level, pool);
  const all = [...Object.values(files), witnessFile];
  witnessFile.write(chainProofHead(projectId));
  const split = (hooks.records ?? 0) >= (hooks.splitFrom ?? segmentWorkerRecords) ? await splitSeq(app, projectId, range) : null;
  const upper = split === null ? null : startUpperPart(app, { projectId, range, after: split, workDir, tally: tally !== null });
  let reported = 0;
  const onPage = (done: number): void => {
    if (Math.floor(done / progressEvery) > Math.floor(reported / progressEvery)) onProgress?.(done, `${done} records`);
    reported = done;
  };
  let totals: RangeTotals;
  let linker: ChainLinker;
  try {
    await hooks.beforePass?.();
    const span = { after: 0, through: split ?? Number.MAX_SAFE_INTEGER };
    const pageRows = split === null ? rowsPerPage : splitPageRows;
    const sinks = { records: files, witnesses: witnessFile };
    const lower = await passRange(app.database, projectId, range, span, null, sinks, { tally, onPage, pageRows });
    linker = lower.linker;
    totals = upper === null ? lower : await joinUpperPart(lower, linker, upper, { files, witnesses: witnessFile, workDir, pool }, tally);
  } catch (error) {
    upper?.stop();
    for (const file of all) file.destroy();
    throw error;
  }
  if (upper !== null) onPage(totals.records);
  const segment =
    totals.firstSeq === null
      ? null
      : {
          first_seq: totals.firstSeq,
          last_seq: totals.lastSeq,
          anchor_prev_hash: linker.firstPrevHash as string,
          head_hash: linker.lastHash as string,
        };
  if (linker.errors.length > 0)
    app.log.warn({ projectId, errors: linker.errors.length }, 'evidence chain failed verification while building a bundle');
  const summary: SegmentSummary = {
    records: totals.records,
    witnesses: totals.witnesses,
    segment,
    verification: { valid: linker.errors.length === 0, checked: linker.count, errors: linker.errors },
  };
  witnessFile.write(chainProofTail(summary));
  const [chainProof, ...bodies] = await Promise.all(all.reverse().map((file) => file.finish()));
  bodies.reverse();
  return {
    ...summary,
    counts: totals.counts,
    recordFiles: Object.fromEntries(schemaKeys.map((key, i) => [key, bodies[i]])) as Record<SchemaKey, DeflatedFile>,
    chainProof: chainProof as DeflatedFile,
    splitAfter: split,
  };
};
