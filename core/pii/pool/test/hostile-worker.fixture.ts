/**
 * The real scan worker with a misbehaving front, for tests of the pool's failure handling. Texts starting with
 * `exit-now` end the thread (as a crash would), `hang-forever` blocks it (as a runaway regex would), `stall`
 * reports one progress step and then blocks, `slow` waits 100 ms before the real scan. Listeners run in registration order, so these run before the
 * real worker's.
 */
import { parentPort } from 'node:worker_threads';
import type { ScanJob, WorkerReply } from '../protocol.ts';

const blockForever = (): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
};

parentPort?.on('message', (job: ScanJob) => {
  if (job.text.startsWith('exit-now')) process.exit(7);
  if (job.text.startsWith('hang-forever')) blockForever();
  if (job.text.startsWith('slow')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  if (job.text.startsWith('stall')) {
    parentPort?.postMessage({ type: 'progress', id: job.id, done: 1, total: 2, recognizer: 'stall' } satisfies WorkerReply);
    blockForever();
  }
});
await import('../pii-scan-worker.ts');
