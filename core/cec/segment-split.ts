/**
 * The build's segment pass split over two threads by seq range (docs/decisions.md, "Bundle build, fourth pass"):
 * the building thread reads, re-hashes and encodes the lower half of the segment while a worker
 * (segment-range-worker.ts) does the same for the upper half into plain per-entry files; the building thread
 * then appends the worker's files to each entry's deflate stream as they grow (so every entry is still one
 * sequential stream: same bytes, SHA-256 and CRC-32 as one pass), checks the seam and takes over the worker's
 * chain verdict and tally.
 */
import { rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { App } from '../app.ts';
import { edgeSeq } from '../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { databaseFile } from '../store/snapshot.ts';
import type { ChainLinker } from './chain-link.ts';
import type { EvidenceTally } from './clauses/evidence-tally.ts';
import type { DeflatingFile } from './deflating-file.ts';
import type { RangeTotals } from './range-pass.ts';
import { type PartName, type SegmentJob, type SegmentMessage, type UpperPart, upperPartPath } from './segment-part.ts';
import { spawnWorker } from '../worker-thread.ts';
import { cecWorkerUrl, plainEnv, workerReachesStorage } from './spawn-worker.ts';
import type { DateRange } from './types.ts';
import { type ChunkPool, chunkBytes } from './utf8-chunks.ts';

/**
 * From this many in-range records the pass is split. The worker now starts in tens of ms (no app: see
 * segment-range-worker.ts), so what is left against it is the part files' round trip (the building thread
 * hashes and deflates the upper half after its own) and ~10-20% more CPU. Building-thread CPU inside the build,
 * one thread vs split (docs/decisions.md, "sixth pass"): 20k records 0.43-0.54 s vs 0.31-0.34 s, 50k 0.80-1.10 s
 * vs 0.56-0.69 s; below ~20k the fixed costs (start-up, keys, the ZIP) are most of the build.
 */
export const segmentWorkerRecords = 20_000;

/** A small young generation: the worker's garbage dies young, and a default-sized one adds resident memory. */
const youngGenerationMb = 8;

const workerUrl = cecWorkerUrl('segment-range-worker');

/**
 * The building thread's share of the in-range seqs: less than half, because its part is paced by the deflaters
 * it feeds (its pass waits for them between pages, and they share the two cores), and after its part it hashes
 * and appends the worker's as it grows. At 1M records on a loaded machine, 0.45 left the worker's backlog to be
 * appended after its reply (6 s more), 0.4 usually finished its part first and caught up; at 50k the two
 * measured the same (docs/decisions.md, "Bundle build seventh pass").
 */
export const lowerShare = 0.4;

/**
 * In-range seqs the building thread passes while the worker starts (a new isolate compiles Node's own modules
 * first: 0.05-0.2 s on this 2-core host), added to its share: at 50k records it takes about half (its thread
 * sat idle a quarter of the build waiting for the worker at 0.4; 0.5 built ~5% faster, median of 6 interleaved
 * runs), at 1M still about 40%.
 */
export const workerStartSeqs = 8_000;

/**
 * The building thread's share of `seqs` in-range seqs: its head start, then `lowerShare` of the rest. Below
 * `segmentWorkerRecords` (where only a test splits a pass) the plain `lowerShare`, so both halves get records.
 */
export const lowerShareOf = (seqs: number): number =>
  seqs < segmentWorkerRecords ? lowerShare : (workerStartSeqs + lowerShare * (seqs - workerStartSeqs)) / seqs;

/**
 * Where to split the project's in-range records, or null (one thread): the last in-range seq at or below
 * `lowerShareOf` of the way through the in-range seqs (records and witnesses alike).
 */
export const splitSeq = async (app: App, projectId: string, [from, to]: DateRange): Promise<number | null> => {
  if (workerUrl === null || app.dataDir === null || !workerReachesStorage(app)) return null;
  const q = { projectId, from, to };
  const first = await edgeSeq(app.database, q, 'asc');
  const last = await edgeSeq(app.database, q, 'desc');
  if (first === null || last === null) return null;
  const split = await edgeSeq(app.database, q, 'desc', {
    after: 0,
    through: first + Math.floor((last - first) * lowerShareOf(last - first)),
  });
  return split === null || split >= last ? null : split;
};

/**
 * How far the worker has written each part file, from its PartWritten messages; `settled` once it replied or
 * failed (every PartWritten comes before its reply on the same port, so the lengths are then final).
 */
export class PartProgress {
  readonly #sizes = new Map<PartName, number>();
  #settled = false;
  #wake: (() => void) | null = null;
  #changed: Promise<void> | null = null;

  size(name: PartName): number {
    return this.#sizes.get(name) ?? 0;
  }

  get settled(): boolean {
    return this.#settled;
  }

  report(name: PartName, size: number): void {
    this.#sizes.set(name, size);
    this.#notify();
  }

  settle(): void {
    this.#settled = true;
    this.#notify();
  }

  /** Resolves at the next report or settle (at once when settled). */
  changed(): Promise<void> {
    if (this.#settled) return Promise.resolve();
    this.#changed ??= new Promise((resolve) => {
      this.#wake = resolve;
    });
    return this.#changed;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    this.#changed = null;
    wake?.();
  }
}

/** The worker of a split pass: its reply (`done` rejects when it fails), its parts' progress, and `stop`. */
export type UpperRun = { readonly done: Promise<UpperPart>; readonly progress: PartProgress; stop(): void };

/** Starts the worker on the records after `after`. */
export const startUpperPart = (app: App, job: Omit<SegmentJob, 'sqliteFile' | 'dataDir' | 'env'>): UpperRun => {
  if (workerUrl === null || app.dataDir === null) throw new Error('this build carries no segment-range-worker');
  // splitSeq checked that the env names this app's storage: on SQLite, the data dir's file (as openApp opens it).
  const sqliteFile = app.database.dialect === 'sqlite' ? databaseFile(app.dataDir) : null;
  const workerData: SegmentJob = { ...job, sqliteFile, dataDir: app.dataDir, env: plainEnv(app.env) };
  const worker = spawnWorker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
  const progress = new PartProgress();
  const done = new Promise<UpperPart>((resolve, reject) => {
    const fail = (message: string): void => {
      progress.settle();
      reject(new Error(message));
    };
    worker.on('message', (message: SegmentMessage) => {
      if ('written' in message) progress.report(message.written, message.size);
      else if (message.ok) {
        progress.settle();
        resolve(message.part);
      } else fail(`segment worker: ${message.message}`);
    });
    worker.once('error', (error) => fail(`segment worker failed: ${error.message}`));
    worker.once('exit', (code) => fail(`segment worker exited with code ${code}`));
  });
  done.catch(() => undefined); // awaited by the pass, or dropped after stop()
  return { done, progress, stop: () => void worker.terminate() };
};

/**
 * Streams a part file into an entry's deflater after what the lower half wrote, as far as the worker has
 * written it, until the worker settles; then removes it. Returns the bytes read. A records part is appended with
 * `crcLater` (the worker's CRC-32 is combined at the join); the witnesses part may lose its first byte (a comma,
 * when the lower half wrote no witness), so it is CRC'd here.
 */
const streamPart = async (
  file: DeflatingFile,
  path: string,
  name: PartName,
  progress: PartProgress,
  part: { readonly crcLater: boolean; readonly dropLeadingComma: boolean; readonly pool: ChunkPool },
): Promise<number> => {
  let handle: Awaited<ReturnType<typeof open>> | null = null;
  let offset = 0;
  let first = part.dropLeadingComma;
  try {
    for (;;) {
      const settled = progress.settled;
      while (offset < progress.size(name)) {
        handle ??= await open(path, 'r');
        const length = Math.min(chunkBytes, progress.size(name) - offset);
        // The deflater holds the chunk until it has compressed it, then gives it back to the pool.
        const chunk = part.pool.take();
        for (let got = 0; got < length; ) {
          const { bytesRead } = await handle.read(chunk, got, length - got, offset + got);
          if (bytesRead === 0) throw new Error(`segment worker: ${path} ends before the ${offset + length} bytes it reported`);
          got += bytesRead;
        }
        offset += length;
        file.append(chunk.subarray(first ? 1 : 0, length), part.crcLater, chunk);
        first = false;
        await file.drained();
      }
      if (settled) break;
      if (!progress.settled && offset >= progress.size(name)) await progress.changed();
    }
  } finally {
    await handle?.close();
  }
  rmSync(path, { force: true });
  return offset;
};

/**
 * Joins the upper part to the lower half's results: each entry's bytes (appended while the worker still writes
 * them), then the seam (the lower half's last link must be the one the worker started from), the chain verdict
 * and tally, and each records part's length and CRC-32 as the worker computed them. Returns the whole segment's
 * totals.
 */
export const joinUpperPart = async (
  lower: RangeTotals,
  linker: ChainLinker,
  run: Pick<UpperRun, 'done' | 'progress'>,
  out: {
    readonly files: Record<SchemaKey, DeflatingFile>;
    readonly witnesses: DeflatingFile;
    readonly workDir: string;
    readonly pool: ChunkPool;
  },
  tally: EvidenceTally | null,
): Promise<RangeTotals> => {
  const stream = (file: DeflatingFile, name: PartName, crcLater: boolean, dropLeadingComma: boolean): Promise<number> =>
    streamPart(file, upperPartPath(out.workDir, name), name, run.progress, { crcLater, dropLeadingComma, pool: out.pool });
  const [sizes] = await Promise.all([
    Promise.all(schemaKeys.map((key) => stream(out.files[key], key, true, false))),
    stream(out.witnesses, 'witnesses', false, lower.witnesses === 0),
  ]);
  const upper = await run.done;
  for (const [i, key] of schemaKeys.entries()) {
    const digest = upper.digests[key];
    if (sizes[i] !== digest.size)
      throw new Error(`segment worker: its ${key} part holds ${sizes[i]} bytes, not the ${digest.size} it wrote`);
    out.files[key].addCrc(digest);
  }
  if (linker.lastSeq !== upper.seed.seq || linker.lastHash !== upper.seed.hash) {
    linker.fail(`chain: seq ${upper.seed.seq} read differently by the two threads of the pass`);
  }
  linker.absorb(upper.linker);
  if (tally !== null) {
    if (upper.tally === null) throw new Error('segment worker: no tally');
    tally.merge(upper.tally);
  }
  return {
    records: lower.records + upper.records,
    witnesses: lower.witnesses + upper.witnesses,
    counts: Object.fromEntries(schemaKeys.map((key) => [key, lower.counts[key] + upper.counts[key]])) as Record<SchemaKey, number>,
    firstSeq: lower.firstSeq,
    lastSeq: upper.lastSeq,
  };
};
