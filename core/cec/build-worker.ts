import { parentPort } from 'node:worker_threads';
import { type App, openApp } from '../app.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import { type BuildParams, type BuiltBundle, writeBundle } from './build.ts';

/** One build request to the worker (plain, structured-clonable data). */
export type WorkerJob = {
  readonly id: number;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  /** The parent app's clock at start (tests and replays run on a fixed clock); the worker's clock runs on from it. */
  readonly now: string;
  readonly params: Omit<BuildParams, 'onProgress'>;
};

export type WorkerMessage =
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number; readonly message: string }
  | { readonly type: 'done'; readonly id: number; readonly built: BuiltBundle }
  | { readonly type: 'error'; readonly id: number; readonly error: WorkerError };

/** An error as it crosses the thread boundary: what the parent needs to rethrow it with the same code. */
export type WorkerError = {
  readonly name: string;
  readonly message: string;
  readonly code?: ErrorCode;
  readonly status?: number;
  readonly detail?: Readonly<Record<string, unknown>>;
};

const toWorkerError = (error: unknown): WorkerError => {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  if (!(error instanceof AppError)) return { name: error.name, message: error.message };
  return {
    name: error.name,
    message: error.message,
    code: error.code,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  };
};

/**
 * The worker's own app on the parent's storage, opened as the parent's was: the data dir's SQLite file, or, when
 * the job's env carries SVC_DATABASE_URL, a pool of its own on the same PostgreSQL database (already migrated by
 * the parent, so the worker's migration check finds nothing to do). The URL is never logged: connection errors
 * show it with the password masked.
 */
const openJobApp = (job: WorkerJob): Promise<App> => {
  const offset = Date.parse(job.now) - Date.now();
  return openApp({ dataDir: job.dataDir, env: job.env, now: () => new Date(Date.now() + offset) });
};

/** Runs one build on its own connection to the parent's storage, reporting progress to the parent. */
const run = async (job: WorkerJob, port: NonNullable<typeof parentPort>): Promise<void> => {
  let app: App;
  try {
    app = await openJobApp(job);
  } catch (error) {
    port.postMessage({ type: 'error', id: job.id, error: toWorkerError(error) } satisfies WorkerMessage);
    return;
  }
  try {
    const built = await writeBundle(app, {
      ...job.params,
      onProgress: (done, total, message) =>
        port.postMessage({ type: 'progress', id: job.id, done, total, message } satisfies WorkerMessage),
    });
    port.postMessage({ type: 'done', id: job.id, built } satisfies WorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'error', id: job.id, error: toWorkerError(error) } satisfies WorkerMessage);
  } finally {
    await app.close();
  }
};

const port = parentPort;
if (port === null) throw new TypeError('build-worker must run in a worker thread');
port.on('message', (job: WorkerJob) => void run(job, port));
port.postMessage({ type: 'ready' });
