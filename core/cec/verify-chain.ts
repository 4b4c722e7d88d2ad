import type { SchemaKey } from '../audit/types.ts';
import { ChainLinker } from './chain-link.ts';
import type { ChainProof } from './chain-proof.ts';
import { inDateRange } from './dates.ts';
import type { DateRange } from './types.ts';
import { type CheckedRecord, RecordLineChecker } from './record-line.ts';
import { LineSplitter } from './zip-reader.ts';
import type { StrictZip, ZipEntry } from './zip-strict.ts';

type Source = { key: SchemaKey; lines: LineSplitter; head: CheckedRecord | null; lastSeq: number; count: number };

export type ChainCheckInput = {
  readonly zip: StrictZip;
  readonly folders: ReadonlyMap<SchemaKey, ZipEntry>;
  readonly proof: ChainProof;
  readonly maxLineBytes: number;
  readonly maxDepth: number;
  /** From the manifest, when it parsed: records must belong to the project and the range. */
  readonly scope: { projectId: string; range: DateRange } | null;
  /** Sees every link in seq order (anchor checks); recordedAt is null for a witness. */
  readonly onLink?: (seq: number, hash: string, recordedAt: string | null) => void;
};

export type ChainCheckOutput = {
  readonly errors: string[];
  readonly counts: Map<SchemaKey, number>;
  /** SHA-256 and size of each NDJSON folder entry as read. */
  readonly digests: Map<string, { sha256: string; size: number }>;
};

/**
 * Re-verifies the chain from the bundle alone: reads the six NDJSON folders side by side (each in seq order)
 * and merges them with the proof's witnesses by seq, re-hashing every full record and re-linking every step.
 * Memory is one line per folder plus the witness list, whatever the record count.
 */
export const verifyChain = async (input: ChainCheckInput): Promise<ChainCheckOutput> => {
  const linker = new ChainLinker();
  const checker = new RecordLineChecker(input.maxDepth);
  const sources: Source[] = [...input.folders].map(([key, item]) => ({
    key,
    lines: new LineSplitter(input.zip, item, input.maxLineBytes),
    head: null,
    lastSeq: 0,
    count: 0,
  }));
  /** Moves `source.head` to its next record from what is already inflated; false when a chunk must be read first. */
  const step = (source: Source): boolean => {
    const { lines } = source;
    while (lines.next()) {
      const record = checker.check(lines.buffer, lines.start, lines.end);
      if (record === 'not-json') linker.fail(`chain: ${source.key} has a line that is not JSON`);
      else if (record === 'malformed') linker.fail(`chain: ${source.key} has a malformed record (not exactly the record fields plus hash)`);
      else {
        source.count += 1;
        if (record.seq <= source.lastSeq) linker.fail(`chain: ${source.key} is not in seq order at seq ${record.seq}`);
        source.lastSeq = record.seq;
        source.head = record;
        return true;
      }
    }
    if (!lines.done) return false;
    source.head = null;
    return true;
  };
  const advance = async (source: Source): Promise<void> => {
    while (!step(source)) await source.lines.fill();
  };
  await Promise.all(sources.map(advance));
  const witnesses = input.proof.witnesses;
  let w = 0;
  for (;;) {
    let best: Source | null = null;
    for (const source of sources) {
      if (source.head !== null && (best === null || source.head.seq < (best.head as CheckedRecord).seq)) best = source;
    }
    const witness = witnesses[w];
    if (best === null && witness === undefined) break;
    const record = best?.head ?? null;
    if (witness !== undefined && (record === null || witness.seq <= record.seq)) {
      if (record !== null && witness.seq === record.seq) linker.fail(`chain: seq ${record.seq} is both a record and a witness`);
      linker.push(witness, () => `witness seq ${witness.seq}`);
      input.onLink?.(witness.seq, witness.hash, null);
      w += 1;
      if (w < witnesses.length && (witnesses[w] as { seq: number }).seq <= witness.seq)
        linker.fail('chain: witnesses are not in seq order');
      continue;
    }
    if (best === null || record === null) break;
    // The label is only written when something fails: a string per record costs at a million records.
    const key = best.key;
    const label = (): string => `record seq ${record.seq} (${key})`;
    if (record.content === 'too-deep') linker.fail(`chain: ${label()} payload is nested deeper than ${input.maxDepth} levels`);
    else if (record.content === 'hash-mismatch') linker.fail(`chain: ${label()} hash does not match its content`);
    if (record.schema_key !== key) linker.fail(`chain: ${label()} is in the wrong folder`);
    if (input.scope !== null) {
      if (record.project_id !== input.scope.projectId) linker.fail(`chain: ${label()} belongs to another project`);
      if (!inDateRange(record.timestamp, input.scope.range)) linker.fail(`chain: ${label()} is outside the date range`);
    }
    linker.push(record, label);
    input.onLink?.(record.seq, record.hash, record.recorded_at);
    if (!step(best)) await advance(best);
  }
  checkSegment(linker, input.proof);
  const counts = new Map(sources.map((source) => [source.key, source.count] as const));
  const total = sources.reduce((sum, source) => sum + source.count, 0);
  if (total !== input.proof.record_count) linker.fail(`chain: proof counts ${input.proof.record_count} records, folders hold ${total}`);
  if (witnesses.length !== input.proof.witness_count) linker.fail('chain: witness_count does not match the witness list');
  if (!input.proof.verification.valid) linker.fail('chain: the builder reported that the stored chain failed verification');
  const digests = new Map(
    sources.map(
      (source) => [source.lines.reader.entry.name, { sha256: source.lines.reader.sha256(), size: source.lines.reader.size }] as const,
    ),
  );
  return { errors: linker.errors, counts, digests };
};

const checkSegment = (linker: ChainLinker, proof: ChainProof): void => {
  const segment = proof.segment;
  if (segment === null) {
    if (linker.count > 0) linker.fail('chain: proof has no segment but the bundle holds records or witnesses');
    return;
  }
  if (linker.count !== segment.last_seq - segment.first_seq + 1) {
    linker.fail(`chain: segment ${segment.first_seq}..${segment.last_seq} is not fully covered (${linker.count} links)`);
  }
  if (linker.firstPrevHash !== segment.anchor_prev_hash) linker.fail('chain: first link does not start at the anchor hash');
  if (linker.lastHash !== segment.head_hash) linker.fail('chain: last link does not end at the head hash');
  if (linker.lastSeq !== segment.last_seq) linker.fail(`chain: segment ends at seq ${linker.lastSeq}, proof says ${segment.last_seq}`);
};
