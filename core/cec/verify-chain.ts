import type { SchemaKey } from '../audit/types.ts';
import { ChainLinker } from './chain-link.ts';
import type { ChainProof } from './chain-proof.ts';
import { type FolderJob, type FolderScope, type FolderSource, type LinkRecord, LocalFolder, problem } from './folder-records.ts';
import { type FolderWorkerPool, folderThreads, openFolderSources } from './folder-workers.ts';
import type { StrictZip, ZipEntry } from './zip-strict.ts';

type Source = {
  reader: FolderSource;
  head: LinkRecord | null;
  lastSeq: number;
  count: number;
  /** Names the head record in an error: one function per folder rather than a closure per record. */
  label: () => string;
};

export type ChainCheckInput = {
  readonly zip: StrictZip;
  readonly folders: ReadonlyMap<SchemaKey, ZipEntry>;
  readonly proof: ChainProof;
  readonly maxLineBytes: number;
  readonly maxDepth: number;
  /** Folders of at least this many bytes in all are read on worker threads (when there are cores to spare). */
  readonly parallelFolderBytes: number;
  /** From the manifest, when it parsed: records must belong to the project and the range. */
  readonly scope: FolderScope;
  /** Folder workers started ahead (verify.ts); the chain check takes them when it reads folders on workers. */
  readonly workers?: FolderWorkerPool;
  /** Sees every link in seq order (anchor checks); recordedAt is null for a witness. */
  readonly onLink?: (seq: number, hash: string, recordedAt: string | null) => void;
};

export type ChainCheckOutput = {
  readonly errors: string[];
  readonly counts: Map<SchemaKey, number>;
  /** SHA-256 and size of each NDJSON folder entry as read. */
  readonly digests: Map<string, { sha256: string; size: number }>;
};

/** Threads that read these folder entries (0: all on the verifying thread): a big bundle on several cores. */
export const threadsForFolders = (entries: readonly ZipEntry[], parallelFolderBytes: number): number => {
  const bytes = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  return bytes >= parallelFolderBytes ? folderThreads(entries.length) : 0;
};

/** The folders' readers: shared with worker threads for a big bundle on several cores, else all on this thread. */
const openFolders = (input: ChainCheckInput) => {
  const jobs: FolderJob[] = [...input.folders].map(([key, entry]) => ({
    key,
    entry,
    maxLineBytes: input.maxLineBytes,
    maxDepth: input.maxDepth,
    scope: input.scope,
  }));
  const threads = threadsForFolders(
    jobs.map((job) => job.entry),
    input.parallelFolderBytes,
  );
  if (threads > 0) return openFolderSources(input.zip, jobs, threads, input.workers);
  const sources: FolderSource[] = jobs.map((job) => new LocalFolder(input.zip, job));
  return { sources, close: async () => undefined };
};

/**
 * Re-verifies the chain from the bundle alone: reads the six NDJSON folders side by side (each in seq order)
 * and merges them with the proof's witnesses by seq, re-hashing every full record and re-linking every step.
 * Memory is a few batches per folder plus the witness list, whatever the record count.
 */
export const verifyChain = async (input: ChainCheckInput): Promise<ChainCheckOutput> => {
  const folders = openFolders(input);
  try {
    return await mergeFolders(input, folders.sources);
  } finally {
    // Only the workers are stopped: awaiting a local reader's close after an ArchiveError elsewhere could wait on
    // an inflate that nobody drives any more (hostile-classes.test.ts hung); its streams are simply dropped.
    await folders.close();
  }
};

const mergeFolders = async (input: ChainCheckInput, readers: readonly FolderSource[]): Promise<ChainCheckOutput> => {
  const linker = new ChainLinker();
  const sources: Source[] = readers.map((reader) => {
    const source: Source = { reader, head: null, lastSeq: 0, count: 0, label: () => `record seq ${source.head?.seq} (${reader.key})` };
    return source;
  });
  /** Moves `source.head` to its next record from what is already read; false when it must read on first. */
  const step = (source: Source): boolean => {
    for (;;) {
      const record = source.reader.next();
      if (record === undefined) return false;
      if (record === null) {
        source.head = null;
        return true;
      }
      if (record === 'not-json')
        linker.fail(`chain: ${source.reader.key} has a line that is not strict JSON (syntax, UTF-8 or a duplicate key)`);
      else if (record === 'malformed')
        linker.fail(`chain: ${source.reader.key} has a malformed record (not exactly the record fields plus hash)`);
      else {
        source.count += 1;
        if (record.seq <= source.lastSeq) linker.fail(`chain: ${source.reader.key} is not in seq order at seq ${record.seq}`);
        source.lastSeq = record.seq;
        source.head = record;
        return true;
      }
    }
  };
  const advance = async (source: Source): Promise<void> => {
    while (!step(source)) await source.reader.fill();
  };
  await Promise.all(sources.map(advance));
  const witnesses = input.proof.witnesses;
  let w = 0;
  for (;;) {
    let best: Source | null = null;
    for (const source of sources) {
      if (source.head !== null && (best === null || source.head.seq < (best.head as LinkRecord).seq)) best = source;
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
    const label = best.label;
    const problems = record.problems;
    if (problems !== 0) {
      if (problems & problem.tooDeep) linker.fail(`chain: ${label()} payload is nested deeper than ${input.maxDepth} levels`);
      else if (problems & problem.hashMismatch) linker.fail(`chain: ${label()} hash does not match its content`);
      if (problems & problem.wrongFolder) linker.fail(`chain: ${label()} is in the wrong folder`);
      if (problems & problem.otherProject) linker.fail(`chain: ${label()} belongs to another project`);
      if (problems & problem.outOfRange) linker.fail(`chain: ${label()} is outside the date range`);
    }
    linker.push(record, label);
    input.onLink?.(record.seq, record.hash, record.recorded_at);
    if (!step(best)) await advance(best);
  }
  checkSegment(linker, input.proof);
  const counts = new Map(sources.map((source) => [source.reader.key, source.count] as const));
  const total = sources.reduce((sum, source) => sum + source.count, 0);
  if (total !== input.proof.record_count) linker.fail(`chain: proof counts ${input.proof.record_count} records, folders hold ${total}`);
  if (witnesses.length !== input.proof.witness_count) linker.fail('chain: witness_count does not match the witness list');
  if (!input.proof.verification.valid) linker.fail('chain: the builder reported that the stored chain failed verification');
  const digests = new Map(sources.map((source) => [source.reader.name, source.reader.digest()] as const));
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
