/**
 * Reads a bundle's NDJSON folders on worker threads (verify-folder-worker.ts): inflating, hashing and checking
 * record lines is most of a verification and independent per folder, so on a machine with several cores the
 * folders are spread over the verifying thread and one worker per other core; the verifying thread also merges
 * them by seq.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { BatchReader, defaultBatchRecords, type FromWorker, type ToWorker } from './folder-batch.ts';
import { type FolderDigest, type FolderItem, type FolderJob, type FolderSource, LocalFolder } from './folder-records.ts';
import { spawnWorker } from '../worker-thread.ts';
import { cecWorkerUrl } from './spawn-worker.ts';
import { ArchiveError } from './zip-errors.ts';
import type { StrictZip } from './zip-strict.ts';

const workerUrl = cecWorkerUrl('verify-folder-worker');
const youngGenerationMb = 8;

/**
 * Threads that read folders for a verification, the calling thread included, or 0 (all on the calling thread):
 * one core, or no worker in this build.
 */
export const folderThreads = (folders: number): number => {
  const threads = Math.min(availableParallelism(), folders);
  return threads > 1 && workerUrl !== null ? threads : 0;
};

// A small young generation per worker: its garbage dies young, and each isolate's default semi-spaces would add
// tens of MB of resident memory (peak RSS at 1M records: 256 MB with the default, 187 MB with this).
const spawnFolderWorker = (url: URL): Worker => spawnWorker(url, { resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } });

/**
 * Folder workers started before the folders are known: a worker's isolate takes a few hundred ms to start and
 * load its modules, which then overlaps the checks that precede the chain (signatures, timestamp, small entries)
 * instead of keeping the merge waiting for the worker's first batch. `take` hands them out (or starts one);
 * `close` stops those nobody took.
 */
export class FolderWorkerPool {
  readonly #ready: Worker[] = [];
  readonly #exited = new Set<Worker>();

  constructor(count: number) {
    if (count > 0 && workerUrl === null) throw new Error('this build carries no verify-folder-worker');
    for (let i = 0; i < count; i += 1) {
      const worker = spawnFolderWorker(workerUrl as URL);
      // A worker that dies before it is taken is replaced, not handed out (its exit event has already fired).
      worker.on('error', () => undefined);
      worker.once('exit', () => this.#exited.add(worker));
      this.#ready.push(worker);
    }
  }

  /** A started worker, or a new one when none is left alive. */
  take(url: URL): Worker {
    let worker = this.#ready.shift();
    while (worker !== undefined && this.#exited.has(worker)) worker = this.#ready.shift();
    return worker ?? spawnFolderWorker(url);
  }

  async close(): Promise<void> {
    await Promise.all(this.#ready.splice(0).map((worker) => worker.terminate()));
  }
}

/** One folder as its worker sends it: batches queue here until the merge reads them. */
class RemoteFolder implements FolderSource {
  readonly #queue: BatchReader[] = [];
  #reader: BatchReader | null = null;
  #end: FolderDigest | null = null;
  #error: Error | null = null;
  #wake: (() => void) | null = null;

  constructor(
    readonly key: FolderJob['key'],
    readonly name: string,
    readonly folder: number,
    readonly worker: Worker,
  ) {}

  receive(message: FromWorker): void {
    if (message.type === 'batch') this.#queue.push(new BatchReader(message.batch));
    else if (message.type === 'end') this.#end = message.digest;
    else this.fail(message.archive ? new ArchiveError(message.message) : new Error(message.message));
    this.#notify();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = null;
    wake?.();
  }

  next(): FolderItem | null | undefined {
    for (;;) {
      const item = this.#reader?.next();
      if (item !== undefined) return item;
      if (this.#reader !== null) {
        this.#reader = null;
        this.worker.postMessage({ type: 'credit', folder: this.folder } satisfies ToWorker);
      }
      const batch = this.#queue.shift();
      if (batch !== undefined) {
        this.#reader = batch;
        continue;
      }
      if (this.#error !== null) throw this.#error;
      return this.#end === null ? undefined : null;
    }
  }

  fill(): Promise<void> {
    if (this.#queue.length > 0 || this.#end !== null || this.#error !== null) return Promise.resolve();
    return new Promise((resolve) => (this.#wake = resolve));
  }

  digest(): FolderDigest {
    if (this.#end === null) throw new Error(`${this.name} was not read to its end`);
    return this.#end;
  }

  async close(): Promise<void> {}
}

/** The share (0 .. shares - 1) of each job: each goes to the least loaded share so far, by declared size. */
const spread = (jobs: readonly FolderJob[], shares: number): number[] => {
  const load = Array.from({ length: shares }, () => 0);
  return jobs.map((job) => {
    const least = load.indexOf(Math.min(...load));
    load[least] = (load[least] as number) + job.entry.uncompressedSize;
    return least;
  });
};

/**
 * Spreads the folders over `threads` threads by declared size: the calling thread reads the first share itself
 * (the seq merge leaves it mostly idle) and a worker reads each other share. One worker fewer than threads saves
 * a V8 isolate's memory and start-up (peak RSS at 1M records on two cores: 216 MB with two workers).
 */
export const openFolderSources = (zip: Pick<StrictZip, 'fd'>, jobs: readonly FolderJob[], threads: number, pool?: FolderWorkerPool) => {
  const share = spread(jobs, threads);
  const remoteJobs = jobs.filter((_, folder) => share[folder] !== 0);
  const workers = openFolderWorkers(zip.fd, remoteJobs, threads - 1, defaultBatchRecords, pool);
  const remote = [...workers.sources];
  const sources = jobs.map((job, folder) => (share[folder] === 0 ? new LocalFolder(zip, job) : (remote.shift() as FolderSource)));
  return { sources, close: workers.close };
};

/**
 * Takes `threads` workers (from `pool` while it has started ones) and gives each folder to the least loaded one
 * (by declared size). The sources read on the caller's descriptor `fd`, which must stay open until `close()`,
 * which stops the workers.
 */
export const openFolderWorkers = (
  fd: number,
  jobs: readonly FolderJob[],
  threads: number,
  batchRecords = defaultBatchRecords,
  pool?: FolderWorkerPool,
) => {
  if (workerUrl === null) throw new Error('this build carries no verify-folder-worker');
  const url = workerUrl;
  const workers = Array.from({ length: threads }, () => pool?.take(url) ?? spawnFolderWorker(url));
  const share = spread(jobs, threads);
  const sources = jobs.map((job, folder) => new RemoteFolder(job.key, job.entry.name, folder, workers[share[folder] as number] as Worker));
  for (const worker of workers) {
    const mine = sources.filter((source) => source.worker === worker);
    worker.on('message', (message: FromWorker) => sources[message.folder]?.receive(message));
    const die = (error: Error): void => {
      for (const source of mine) source.fail(new Error(`folder worker failed: ${error.message}`));
    };
    worker.on('error', die);
    worker.on('exit', (code) => die(new Error(`exited with code ${code}`)));
    for (const source of mine) {
      const job = jobs[source.folder] as FolderJob;
      worker.postMessage({ type: 'folder', folder: source.folder, fd, job, batchRecords } satisfies ToWorker);
    }
  }
  return {
    sources: sources as FolderSource[],
    close: async (): Promise<void> => {
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
};
