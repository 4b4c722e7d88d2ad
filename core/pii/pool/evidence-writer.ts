/**
 * The evidence writer thread of a serving app (started with its scan workers, scanner.ts): scan evidence batches
 * go to evidence-writer-worker.ts, which appends them on its own connection to the app's SQLite file. On the
 * event loop, a scan's evidence cost a quarter of its main-thread time (INSERTs, COMMIT, hashing), the thread
 * that parses and answers every HTTP request (docs/decisions.md, "PII over HTTP, fifth pass").
 */
import type { Worker } from 'node:worker_threads';
import type { EvidenceInput } from '../../audit/types.ts';
import type { EvidenceBatch, EvidenceBatchReply } from './protocol.ts';
import { fromWorkerError } from './worker-error.ts';

export type EvidenceWriter = {
  /** Each input's outcome, in order: undefined once durable, else what failed it. Rejects when the thread dies. */
  write(inputs: readonly EvidenceInput[], now: Date): Promise<(Error | undefined)[]>;
  /** Lets the batches in flight finish, then ends the thread; later writes are refused. */
  close(): Promise<void>;
};

type Waiting = { resolve(outcomes: (Error | undefined)[]): void; reject(error: Error): void };

/**
 * A writer over threads from `spawn`, started at the first write. A thread that fails or exits fails the
 * batches it held (whether they committed is unknown, so they are not retried); the next write starts another.
 */
export const createEvidenceWriter = (spawn: () => Worker): EvidenceWriter => {
  let worker: Worker | null = null;
  let nextId = 0;
  let closed = false;
  const waiting = new Map<number, Waiting>();

  const lost = (from: Worker, reason: string): void => {
    if (worker !== from) return;
    worker = null;
    const error = new Error(`evidence writer ${reason}`);
    for (const batch of waiting.values()) batch.reject(error);
    waiting.clear();
  };
  const start = (): Worker => {
    const started = spawn();
    started.on('message', (reply: EvidenceBatchReply) => {
      const batch = waiting.get(reply.id);
      waiting.delete(reply.id);
      // Idle, the thread must not keep the process alive (the app's close ends it).
      if (waiting.size === 0) started.unref();
      batch?.resolve(reply.failures.map((failure) => (failure === null ? undefined : fromWorkerError(failure))));
    });
    started.once('error', (error) => lost(started, `failed: ${error.message}`));
    started.once('exit', (code) => lost(started, `exited with code ${code}`));
    return started;
  };

  const inFlight = new Set<Promise<unknown>>();
  const post = (inputs: readonly EvidenceInput[], now: Date): Promise<(Error | undefined)[]> =>
    new Promise((resolve, reject) => {
      if (closed) {
        reject(new Error('evidence writer closed'));
        return;
      }
      worker ??= start();
      worker.ref();
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, now: now.toISOString(), inputs } satisfies EvidenceBatch);
    });

  return {
    write: (inputs, now) => {
      const written = post(inputs, now);
      inFlight.add(written);
      const forget = (): void => void inFlight.delete(written);
      written.then(forget, forget);
      return written;
    },
    close: async () => {
      closed = true;
      await Promise.allSettled(inFlight);
      const ending = worker;
      worker = null;
      await ending?.terminate();
    },
  };
};
