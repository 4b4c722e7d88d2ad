/**
 * A fixed-size pool of scan workers. Each worker runs one job at a time; jobs wait in a FIFO queue for the
 * next ready worker. A worker that exits mid-scan, or a scan that outlives `timeoutMs` (the worker is then
 * terminated: a synchronous scan cannot be interrupted otherwise), rejects that job and the worker is replaced;
 * no caller ever waits on a dead worker. A cancelled job is rejected at once; if it was running, its worker
 * gets `cancelGraceMs` to finish (small scans do, and the worker stays) before it is terminated and replaced.
 */
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import type { EngineScanOptions, ScanProgress, ScanResult } from '../types.ts';
import type { ScanJob, WorkerReply } from './protocol.ts';

export type ScanControl = { readonly signal?: AbortSignal; readonly onProgress?: ScanProgress };

export type ScanPoolOptions = {
  readonly size: number;
  /** Longest time a job may run in a worker (queueing not counted). */
  readonly timeoutMs: number;
  readonly spawn: () => Worker;
  /** How long a cancelled running scan may still finish before its worker is terminated (default 500 ms). */
  readonly cancelGraceMs?: number;
};

export type ScanPoolStats = {
  readonly workers: number;
  readonly ready: number;
  readonly busy: number;
  readonly queued: number;
  /** Workers started since the pool was created (replacements included). */
  readonly started: number;
};

export type ScanPool = {
  scan(text: string, options: EngineScanOptions, control?: ScanControl): Promise<ScanResult>;
  stats(): ScanPoolStats;
  /** Terminates every worker; pending and queued scans are rejected. */
  close(): void;
};

type Task = {
  /** Rejected already; a late result or progress is dropped. */
  cancelled: boolean;
  readonly text: string;
  readonly options: EngineScanOptions;
  readonly control: ScanControl;
  readonly resolve: (result: ScanResult) => void;
  readonly reject: (error: Error) => void;
  readonly onAbort: () => void;
};

type Slot = {
  readonly worker: Worker;
  ready: boolean;
  task: Task | undefined;
  jobId: number;
  timer: NodeJS.Timeout | undefined;
  failure: string;
};

export const scanCancelled = (): AppError => new AppError('UNAVAILABLE', 'scan cancelled');

/** A client that hangs up mid-scan must not cost a worker restart for a scan that ends in milliseconds anyway. */
const defaultCancelGraceMs = 500;

export const createScanPool = (options: ScanPoolOptions): ScanPool => {
  const slots = new Set<Slot>();
  const queue: Task[] = [];
  let nextJobId = 1;
  let started = 0;
  let closed = false;

  const finish = (task: Task, outcome: { result: ScanResult } | { error: Error }): void => {
    task.control.signal?.removeEventListener('abort', task.onAbort);
    if ('result' in outcome) task.resolve(outcome.result);
    else task.reject(outcome.error);
  };

  /** Frees a slot whose job ended; the worker stays for the next job. */
  const release = (slot: Slot): Task | undefined => {
    const task = slot.task;
    clearTimeout(slot.timer);
    slot.task = undefined;
    slot.worker.unref();
    return task;
  };

  /** Drops a worker for good (timed out, cancelled, crashed, closing) and fails its job, if any, with `error`. */
  const retire = (slot: Slot, error: Error): void => {
    slots.delete(slot);
    const task = release(slot);
    void slot.worker.terminate();
    if (task !== undefined) finish(task, { error });
  };

  const run = (slot: Slot, task: Task): void => {
    slot.task = task;
    slot.jobId = nextJobId++;
    slot.timer = setTimeout(() => {
      retire(slot, new Error(`scan timed out after ${options.timeoutMs / 1000} s`));
      dispatch();
    }, options.timeoutMs);
    slot.worker.ref(); // a running scan keeps the process alive; an idle worker does not
    const job: ScanJob = { id: slot.jobId, text: task.text, options: task.options, reportProgress: task.control.onProgress !== undefined };
    slot.worker.postMessage(job);
  };

  const onReply = (slot: Slot, reply: WorkerReply): void => {
    if (reply.type === 'ready') {
      slot.ready = true;
    } else if (slot.task !== undefined && reply.id === slot.jobId) {
      if (reply.type === 'progress') {
        if (!slot.task.cancelled) slot.task.control.onProgress?.(reply.done, reply.total, reply.recognizer);
        return;
      }
      const task = release(slot) as Task;
      if (reply.type === 'done') finish(task, { result: reply.result });
      else finish(task, { error: reply.error.code ? new AppError(reply.error.code, reply.error.message) : new Error(reply.error.message) });
    }
    dispatch();
  };

  const onExit = (slot: Slot, code: number): void => {
    if (!slots.has(slot)) return; // retired on purpose
    const reason = slot.failure || `exit code ${code}`;
    retire(slot, new Error(`scan worker died (${reason})`));
    if (slot.ready) {
      dispatch(); // replaces it
    } else if (slots.size === 0) {
      // It never started (a broken recognizers file, say): fail the waiting scans instead of respawning in a loop.
      for (const task of queue.splice(0)) finish(task, { error: new Error(`scan worker failed to start (${reason})`) });
    }
  };

  const start = (): void => {
    const worker = options.spawn();
    started++;
    worker.unref();
    const slot: Slot = { worker, ready: false, task: undefined, jobId: 0, timer: undefined, failure: '' };
    slots.add(slot);
    worker.on('message', (reply: WorkerReply) => onReply(slot, reply));
    worker.on('error', (error) => {
      slot.failure = error.message;
    });
    worker.on('exit', (code) => onExit(slot, code));
  };

  function dispatch(): void {
    if (closed) return;
    for (const slot of slots) {
      if (queue.length === 0) break;
      if (slot.ready && slot.task === undefined) run(slot, queue.shift() as Task);
    }
    while (slots.size < options.size) start();
  }

  const cancel = (task: Task): void => {
    const queued = queue.indexOf(task);
    if (queued >= 0) {
      queue.splice(queued, 1);
      finish(task, { error: scanCancelled() });
      return;
    }
    task.cancelled = true;
    finish(task, { error: scanCancelled() });
    for (const slot of slots) {
      if (slot.task !== task) continue;
      clearTimeout(slot.timer);
      slot.timer = setTimeout(() => {
        retire(slot, scanCancelled());
        dispatch();
      }, options.cancelGraceMs ?? defaultCancelGraceMs);
    }
  };

  dispatch();
  return {
    scan: (text, scanOptions, control = {}) =>
      new Promise<ScanResult>((resolve, reject) => {
        if (closed) throw new Error('scan pool is closed');
        if (control.signal?.aborted) throw scanCancelled();
        const task: Task = { cancelled: false, text, options: scanOptions, control, resolve, reject, onAbort: () => cancel(task) };
        control.signal?.addEventListener('abort', task.onAbort, { once: true });
        queue.push(task);
        dispatch();
      }),
    stats: () => {
      const all = [...slots];
      return {
        workers: all.length,
        ready: all.filter((slot) => slot.ready).length,
        busy: all.filter((slot) => slot.task !== undefined).length,
        queued: queue.length,
        started,
      };
    },
    close: () => {
      closed = true;
      for (const slot of [...slots]) retire(slot, new Error('scan pool closed'));
      for (const task of queue.splice(0)) finish(task, { error: new Error('scan pool closed') });
    },
  };
};
