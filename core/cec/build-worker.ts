import { parentPort, workerData } from 'node:worker_threads';
import { createApp } from '../app.ts';
import { type BuildParams, writeBundle } from './build.ts';

/** What the client sends the build worker (plain, structured-clonable data). */
export type WorkerJob = {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  /** The parent app's clock at start (tests and replays run on a fixed clock); the worker's clock runs on from it. */
  readonly now: string;
  readonly params: Omit<BuildParams, 'onProgress'>;
};

export type WorkerMessage =
  | { readonly type: 'progress'; readonly done: number; readonly total: number; readonly message: string }
  | { readonly type: 'done'; readonly built: Awaited<ReturnType<typeof writeBundle>> }
  | { readonly type: 'error'; readonly message: string };

/** Runs one build on its own SQLite connection to the same data dir, reporting progress to the parent. */
const run = async (job: WorkerJob): Promise<void> => {
  const port = parentPort;
  if (port === null) throw new TypeError('build-worker must run in a worker thread');
  const offset = Date.parse(job.now) - Date.now();
  const app = createApp({ dataDir: job.dataDir, env: job.env, now: () => new Date(Date.now() + offset) });
  try {
    const built = await writeBundle(app, {
      ...job.params,
      onProgress: (done, total, message) => port.postMessage({ type: 'progress', done, total, message } satisfies WorkerMessage),
    });
    port.postMessage({ type: 'done', built } satisfies WorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'error', message: error instanceof Error ? error.message : String(error) } satisfies WorkerMessage);
  } finally {
    app.close();
  }
};

await run(workerData as WorkerJob);
