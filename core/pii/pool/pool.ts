/**
 * A fixed-size pool of scan workers. Jobs wait in a FIFO queue; each worker runs its jobs one at a time, in the
 * order it was given them. A worker may hold up to `pipelineDepth` small jobs: the next one is already in its
 * port when the current one ends, so it never idles while the main thread is busy with other requests before it
 * reads the reply (one job at a time left them waiting on it: docs/decisions.md, "Scan workers hold several jobs").
 * Large texts (progress-reporting scans) go only to an idle worker, and nothing is queued behind them, so a
 * cancel or a timeout never waits on another job.
 * A worker that exits mid-scan, or a scan that outlives `timeoutMs` (the worker is then terminated: a synchronous
 * scan cannot be interrupted otherwise), rejects the job it was running, its other jobs go back to the front of
 * the queue, and the worker is replaced; no caller ever waits on a dead worker. A cancelled job is rejected at
 * once; if it was running, its worker gets `cancelGraceMs` to finish (small scans do, and the worker stays)
 * before it is terminated and replaced.
 */
import type { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.ts';
import type { EngineScanOptions, ScanProgress, ScanResult } from '../types.ts';
import type { ScanJob, WorkerReply } from './protocol.ts';
import { fromWorkerError } from './worker-error.ts';

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

type Job = { readonly id: number; readonly task: Task };

type Slot = {
  readonly worker: Worker;
  ready: boolean;
  /** Jobs posted to the worker and not answered yet, in the order it runs them: the first is running. */
  readonly jobs: Job[];
  /** The running job's timeout (or, once it is cancelled, its grace period). */
  timer: NodeJS.Timeout | undefined;
  failure: string;
};

export const scanCancelled = (): AppError => new AppError('UNAVAILABLE', 'scan cancelled');

/** A client that hangs up mid-scan must not cost a worker restart for a scan that ends in milliseconds anyway. */
const defaultCancelGraceMs = 500;
/** Most jobs one worker holds: enough to cover the main thread's turn between two of its replies. */
const pipelineDepth = 4;
/** Texts this long or longer (they may run for seconds) only go to an idle worker. */
const pipelinedTextLimit = 64 * 1024;

const isSmall = (task: Task): boolean => task.text.length < pipelinedTextLimit && task.control.onProgress === undefined;

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

  /** Starts the clock of the job the worker runs now, if any; an idle worker does not keep the process alive. */
  const timeRunningJob = (slot: Slot): void => {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    const running = slot.jobs[0];
    if (running === undefined) {
      slot.worker.unref();
      return;
    }
    slot.worker.ref();
    slot.timer = running.task.cancelled
      ? retireAfter(slot, options.cancelGraceMs ?? defaultCancelGraceMs, scanCancelled)
      : retireAfter(slot, options.timeoutMs, () => new Error(`scan timed out after ${options.timeoutMs / 1000} s`));
  };

  /** Retires the worker after `ms` unless its running job answers first (timeRunningJob clears the timer). */
  const retireAfter = (slot: Slot, ms: number, error: () => Error): NodeJS.Timeout =>
    setTimeout(() => {
      retire(slot, error());
      dispatch();
    }, ms);

  /**
   * Drops a worker for good (timed out, cancelled, crashed, closing): its running job fails with `error`; the
   * jobs it had not started go back to the front of the queue (or fail too when the pool is closing).
   */
  const retire = (slot: Slot, error: Error): void => {
    slots.delete(slot);
    clearTimeout(slot.timer);
    void slot.worker.terminate();
    const [running, ...waiting] = slot.jobs.splice(0);
    if (running !== undefined) finish(running.task, { error });
    const requeued = waiting.map((job) => job.task).filter((task) => !task.cancelled);
    if (closed) for (const task of requeued) finish(task, { error });
    else queue.unshift(...requeued);
  };

  const post = (slot: Slot, task: Task): void => {
    const job: Job = { id: nextJobId++, task };
    slot.jobs.push(job);
    if (slot.jobs.length === 1) timeRunningJob(slot);
    const message: ScanJob = { id: job.id, text: task.text, options: task.options, reportProgress: task.control.onProgress !== undefined };
    slot.worker.postMessage(message);
  };

  const onReply = (slot: Slot, reply: WorkerReply): void => {
    if (reply.type === 'ready') {
      slot.ready = true;
      dispatch();
      return;
    }
    const running = slot.jobs[0];
    if (running === undefined || reply.id !== running.id) return;
    if (reply.type === 'progress') {
      if (!running.task.cancelled) running.task.control.onProgress?.(reply.done, reply.total, reply.recognizer);
      return;
    }
    slot.jobs.shift();
    timeRunningJob(slot);
    if (reply.type === 'done') finish(running.task, { result: reply.result });
    else
      finish(running.task, {
        error: fromWorkerError(reply.error),
      });
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
    const slot: Slot = { worker, ready: false, jobs: [], timer: undefined, failure: '' };
    slots.add(slot);
    worker.on('message', (reply: WorkerReply) => onReply(slot, reply));
    worker.on('error', (error) => {
      slot.failure = error.message;
    });
    worker.on('exit', (code) => onExit(slot, code));
  };

  /** Whether `slot` may take `task` now, given how many jobs it may hold in this round of dispatch. */
  const accepts = (slot: Slot, task: Task, holding: number): boolean =>
    slot.ready && slot.jobs.length < holding && (slot.jobs.length === 0 || (isSmall(task) && slot.jobs.every((job) => isSmall(job.task))));

  /** Hands queued jobs out breadth-first: every idle worker gets one before any worker gets a second. */
  function dispatch(): void {
    if (closed) return;
    for (let holding = 1; holding <= pipelineDepth && queue.length > 0; holding++) {
      for (const slot of slots) {
        const next = queue[0];
        if (next === undefined) break;
        if (accepts(slot, next, holding)) post(slot, queue.shift() as Task);
      }
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
    // A running job gets its grace period now; one still waiting in a worker gets it when it starts.
    for (const slot of slots) if (slot.jobs[0]?.task === task) timeRunningJob(slot);
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
        busy: all.filter((slot) => slot.jobs.length > 0).length,
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
