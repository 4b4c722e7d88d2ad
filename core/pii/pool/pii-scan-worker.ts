/**
 * A scan worker: builds the engine once (recognizers compiled by a warm-up scan), says `ready`, then runs one
 * job at a time for the pool. Bundles ship it as `pii-scan-worker.<ext>` beside themselves (spawn.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createFullEngine } from '../full-engine.ts';
import type { ScanJob, WorkerConfig, WorkerReply } from './protocol.ts';
import { toWorkerError } from './worker-error.ts';

const port = parentPort;
if (port === null) throw new Error('pii-scan-worker.ts runs as a worker thread only');
const config = (workerData ?? {}) as WorkerConfig;
const engine = createFullEngine(config.customRecognizersFile);
// The first scan compiles every recognizer's regexes and loads the tagger's lexicon: pay it before any request.
engine.scan('Warm-up: Maria Gonzalez in Madrid, maria@example.com, +1 415-555-0132, 2026-01-31.');

const post = (reply: WorkerReply): void => port.postMessage(reply);

port.on('message', (job: ScanJob) => {
  const onProgress = job.reportProgress
    ? (done: number, total: number, recognizer: string) => post({ type: 'progress', id: job.id, done, total, recognizer })
    : undefined;
  try {
    post({ type: 'done', id: job.id, result: engine.scan(job.text, job.options, onProgress) });
  } catch (error) {
    post({ type: 'error', id: job.id, error: toWorkerError(error) });
  }
});
post({ type: 'ready' });
