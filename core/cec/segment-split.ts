/**
 * The build's segment pass split over two threads by seq range (docs/decisions.md, "Bundle build, fourth pass"):
 * the building thread reads, re-hashes and encodes the lower half of the segment while a worker
 * (segment-range-worker.ts) does the same for the upper half into plain per-entry files; the building thread
 * then checks the seam, takes over the worker's chain verdict and tally, and appends its files to each entry's
 * deflate stream, so every entry is still one sequential stream (same bytes, SHA-256 and CRC-32 as one pass).
 */
import { createReadStream, rmSync } from 'node:fs';
import type { App } from '../app.ts';
import { edgeSeq } from '../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { databaseFile } from '../store/snapshot.ts';
import type { ChainLinker } from './chain-link.ts';
import type { EvidenceTally } from './clauses/evidence-tally.ts';
import type { DeflatingFile } from './deflating-file.ts';
import type { PartDigest } from './plain-file.ts';
import type { RangeTotals } from './range-pass.ts';
import { type SegmentJob, type SegmentReply, type UpperPart, upperPartPath } from './segment-part.ts';
import { cecWorkerUrl, plainEnv, spawnWorker, workerReachesStorage } from './spawn-worker.ts';
import type { DateRange } from './types.ts';

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
 * The building thread's share of the in-range seqs: less than half, because after its own part it also hashes
 * and deflates the worker's (the join), and it feeds the deflaters all along.
 */
export const lowerShare = 0.45;

/**
 * Where to split the project's in-range records, or null (one thread): the last in-range seq at or below
 * `lowerShare` of the way through the in-range seqs (records and witnesses alike).
 */
export const splitSeq = async (app: App, projectId: string, [from, to]: DateRange): Promise<number | null> => {
  if (workerUrl === null || app.dataDir === null || !workerReachesStorage(app)) return null;
  const q = { projectId, from, to };
  const first = await edgeSeq(app.database, q, 'asc');
  const last = await edgeSeq(app.database, q, 'desc');
  if (first === null || last === null) return null;
  const split = await edgeSeq(app.database, q, 'desc', { after: 0, through: first + Math.floor((last - first) * lowerShare) });
  return split === null || split >= last ? null : split;
};

/** Starts the worker on the records after `after`; `done` rejects when it fails, `stop` ends it early. */
export const startUpperPart = (
  app: App,
  job: Omit<SegmentJob, 'sqliteFile' | 'dataDir' | 'env'>,
): { readonly done: Promise<UpperPart>; stop(): void } => {
  if (workerUrl === null || app.dataDir === null) throw new Error('this build carries no segment-range-worker');
  // splitSeq checked that the env names this app's storage: on SQLite, the data dir's file (as openApp opens it).
  const sqliteFile = app.database.dialect === 'sqlite' ? databaseFile(app.dataDir) : null;
  const workerData: SegmentJob = { ...job, sqliteFile, dataDir: app.dataDir, env: plainEnv(app.env) };
  const worker = spawnWorker(workerUrl, { workerData, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });
  const done = new Promise<UpperPart>((resolve, reject) => {
    worker.once('message', (reply: SegmentReply) =>
      reply.ok ? resolve(reply.part) : reject(new Error(`segment worker: ${reply.message}`)),
    );
    worker.once('error', (error) => reject(new Error(`segment worker failed: ${error.message}`)));
    worker.once('exit', (code) => reject(new Error(`segment worker exited with code ${code}`)));
  });
  done.catch(() => undefined); // awaited by the pass, or dropped after stop()
  return { done, stop: () => void worker.terminate() };
};

/**
 * Streams a part file into an entry's deflater after what the lower half wrote, then removes it. A records part
 * comes with the CRC-32 the worker computed (`digest`), which is combined instead of CRC'ing the bytes again; the
 * witnesses part may lose its first byte, so it is CRC'd here.
 */
const appendPart = async (
  file: DeflatingFile,
  path: string,
  part: { readonly digest: PartDigest } | { readonly dropLeadingComma: boolean },
): Promise<void> => {
  const digest = 'digest' in part ? part.digest : null;
  let first = 'dropLeadingComma' in part && part.dropLeadingComma;
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const bytes = first ? (chunk as Buffer).subarray(1) : (chunk as Buffer);
    file.append(bytes, digest !== null);
    size += bytes.length;
    first = false;
    await file.drained();
  }
  if (digest !== null) {
    if (size !== digest.size) throw new Error(`segment worker: ${path} holds ${size} bytes, not the ${digest.size} it wrote`);
    file.addCrc(digest);
  }
  rmSync(path);
};

/**
 * Joins the upper part to the lower half's results: the seam (the lower half's last link must be the one the
 * worker started from), the chain verdict and tally, then each entry's bytes. Returns the whole segment's totals.
 */
export const joinUpperPart = async (
  lower: RangeTotals,
  linker: ChainLinker,
  upper: UpperPart,
  out: { readonly files: Record<SchemaKey, DeflatingFile>; readonly witnesses: DeflatingFile; readonly workDir: string },
  tally: EvidenceTally | null,
): Promise<RangeTotals> => {
  if (linker.lastSeq !== upper.seed.seq || linker.lastHash !== upper.seed.hash) {
    linker.fail(`chain: seq ${upper.seed.seq} read differently by the two threads of the pass`);
  }
  linker.absorb(upper.linker);
  if (tally !== null) {
    if (upper.tally === null) throw new Error('segment worker: no tally');
    tally.merge(upper.tally);
  }
  await Promise.all([
    ...schemaKeys.map((key) => appendPart(out.files[key], upperPartPath(out.workDir, key), { digest: upper.digests[key] })),
    appendPart(out.witnesses, upperPartPath(out.workDir, 'witnesses'), { dropLeadingComma: lower.witnesses === 0 }),
  ]);
  return {
    records: lower.records + upper.records,
    witnesses: lower.witnesses + upper.witnesses,
    counts: Object.fromEntries(schemaKeys.map((key) => [key, lower.counts[key] + upper.counts[key]])) as Record<SchemaKey, number>,
    firstSeq: lower.firstSeq,
    lastSeq: upper.lastSeq,
  };
};
