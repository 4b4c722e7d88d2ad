import { join } from 'node:path';
import type { App } from '../app.ts';
import { canonicalHashInput, hashOfCanonicalInput, quoteField } from '../audit/chain.ts';
import { chainRows, type EvidenceRow, evidencePages } from '../audit/store.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { ChainLinker } from './chain-link.ts';
import { chainProofHead, chainProofTail } from './chain-proof.ts';
import { type DeflatedFile, DeflatingFile } from './deflating-file.ts';
import type { DateRange } from './types.ts';

const progressEvery = 25_000;
/**
 * Rows per query: fewer round trips than the store's default page (less main-thread CPU), ~2.5 MB a page. 4000
 * took the same time at 1M records but peaked at 299-311 MB RSS (2000: 271-278 MB; the aim is 300 MB).
 */
const rowsPerPage = 2000;

/**
 * Re-hashes and re-links one stored row; gives the text its hash covers (canonicalHashInput), built once for
 * the hash and the NDJSON line (recordLine). Hashing flattens the string, so the line copies a flat slice of it.
 */
const checkedInput = (row: EvidenceRow, linker: ChainLinker): string => {
  const input = canonicalHashInput(row, row.payload);
  if (hashOfCanonicalInput(input) !== row.hash) linker.fail(`chain: seq ${row.seq} hash does not match its content`);
  linker.push(row);
  return input;
};

/**
 * One NDJSON line: the record's own RFC 8785 form (keys in JCS order, no whitespace; the payload column already
 * holds JCS text, copied verbatim). The text after the `hash` member is exactly JCS(record without hash), so a
 * verifier can hash the line's own bytes (core/cec/canonical-line.ts).
 */
const recordLine = (row: EvidenceRow, input: string): string =>
  `{"hash":${quoteField(row.hash)},${input.slice(row.prev_hash.length + 1)}\n`;

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
};

/**
 * One pass over the project's chain segment in seq order: in-range records go to their schema key's NDJSON
 * entry, the out-of-range records in the gaps between them become hash-only witnesses in the chain proof, and
 * every record is re-hashed and re-linked on the way. Each entry is deflated (at `level`) on the thread pool as
 * it is written, so compression overlaps the pass. Reading stored rows without re-parsing payloads keeps this
 * pass cheap; the bundle verifier re-derives everything from parsed JSON, so the two paths check each other.
 */
export const collectSegment = async (
  app: App,
  projectId: string,
  [from, to]: DateRange,
  workDir: string,
  level: number,
  hooks: {
    /** Sees every in-range row once, in seq order (the clause map's tally, clauses/evidence-tally.ts). */
    readonly onRecord?: ((row: EvidenceRow) => void) | undefined;
    readonly onProgress?: ((done: number, message: string) => void) | undefined;
  } = {},
): Promise<SegmentResult> => {
  const { onRecord, onProgress } = hooks;
  const counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  const files = Object.fromEntries(
    schemaKeys.map((key) => [key, new DeflatingFile(join(workDir, `${key}.ndjson.deflate`), level)]),
  ) as Record<SchemaKey, DeflatingFile>;
  const witnessFile = new DeflatingFile(join(workDir, 'chain_proof.json.deflate'), level);
  const all = [...Object.values(files), witnessFile];
  witnessFile.write(chainProofHead(projectId));
  const linker = new ChainLinker();
  let records = 0;
  let witnesses = 0;
  let firstSeq: number | null = null;
  let lastSeq = 0;

  const witnessGap = async (fromSeq: number, toSeq: number): Promise<void> => {
    for await (const row of chainRows(app.database, projectId, fromSeq, toSeq)) {
      checkedInput(row, linker);
      witnessFile.write(`${witnesses === 0 ? '' : ','}{"seq":${row.seq},"hash":"${row.hash}","prev_hash":"${row.prev_hash}"}`);
      witnesses += 1;
    }
  };

  try {
    // Pages in seq order from app.database (SQLite or PostgreSQL); appends only add higher seqs, so a build
    // running beside them reads a consistent prefix of the chain.
    for await (const page of evidencePages(app.database, { projectId, from, to }, rowsPerPage)) {
      for (const row of page) {
        if (firstSeq === null) firstSeq = row.seq;
        else if (row.seq > lastSeq + 1) await witnessGap(lastSeq + 1, row.seq - 1);
        files[row.schema_key].write(recordLine(row, checkedInput(row, linker)));
        onRecord?.(row);
        counts[row.schema_key] += 1;
        lastSeq = row.seq;
      }
      const done = records + page.length;
      if (Math.floor(done / progressEvery) > Math.floor(records / progressEvery)) onProgress?.(done, `${done} records`);
      records = done;
      // Between pages, let timers and I/O run (an in-process build must not freeze the app), and let the
      // deflaters catch up so memory stays flat.
      await new Promise((resolve) => setImmediate(resolve));
      for (const file of all) await file.drained();
    }
  } catch (error) {
    for (const file of all) file.destroy();
    throw error;
  }
  const segment =
    firstSeq === null
      ? null
      : { first_seq: firstSeq, last_seq: lastSeq, anchor_prev_hash: linker.firstPrevHash as string, head_hash: linker.lastHash as string };
  if (linker.errors.length > 0)
    app.log.warn({ projectId, errors: linker.errors.length }, 'evidence chain failed verification while building a bundle');
  const summary: SegmentSummary = {
    records,
    witnesses,
    segment,
    verification: { valid: linker.errors.length === 0, checked: linker.count, errors: linker.errors },
  };
  witnessFile.write(chainProofTail(summary));
  const [chainProof, ...bodies] = await Promise.all(all.reverse().map((file) => file.finish()));
  bodies.reverse();
  return {
    ...summary,
    counts,
    recordFiles: Object.fromEntries(schemaKeys.map((key, i) => [key, bodies[i]])) as Record<SchemaKey, DeflatedFile>,
    chainProof: chainProof as DeflatedFile,
  };
};
