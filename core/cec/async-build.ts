import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type App, service } from '../app.ts';
import { SFCECBuildError } from '../errors.ts';
import type { BuildParams, BuiltBundle } from './build.ts';
import type { WorkerError, WorkerJob, WorkerMessage } from './build-worker.ts';
import { plainEnv } from './spawn-worker.ts';

const workerUrl = new URL('./build-worker.ts', import.meta.url).href;
/**
 * `--import tsx` in a worker's execArgv does not reach the worker's own entry module on Node 20, so a tiny
 * eval'd bootstrap registers tsx's ESM hooks first and then imports the TypeScript worker.
 */
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl)}); })`;
/** In the desktop bundle (scripts/build-electron.mjs) the worker is prebuilt JavaScript beside main.mjs. */
const bundledWorker = new URL('./build-worker.mjs', import.meta.url);
const newWorker = (): Worker =>
  existsSync(fileURLToPath(bundledWorker)) ? new Worker(bundledWorker) : new Worker(bootstrap, { eval: true });

type Pending = { resolve: (built: BuiltBundle) => void; reject: (error: Error) => void; onProgress: BuildParams['onProgress'] };

/** The worker's error as an SFCECBuildError with the same code, status and detail (the cause names the original). */
const fromWorkerError = (error: WorkerError): SFCECBuildError => {
  const cause = Object.assign(new Error(error.message), { name: error.name });
  return new SFCECBuildError(error.message, {
    cause,
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.detail === undefined ? {} : { detail: error.detail }),
  });
};

/**
 * One long-lived build worker per app: TypeScript start-up (about a second through tsx) is paid once, and
 * `app.close()` terminates it. It keeps the process alive only while a job runs.
 */
const createBuildWorker = () => {
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 1;
  const failAll = (error: Error): void => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
    worker = null;
  };
  const start = (): Worker => {
    const created = newWorker();
    created.unref();
    created.on('message', (message: WorkerMessage | { type: 'ready' }) => {
      if (message.type === 'ready') return;
      const job = pending.get(message.id);
      if (job === undefined) return;
      if (message.type === 'progress') job.onProgress?.(message.done, message.total, message.message);
      else {
        pending.delete(message.id);
        if (pending.size === 0) created.unref();
        if (message.type === 'done') job.resolve(message.built);
        else job.reject(fromWorkerError(message.error));
      }
    });
    created.on('error', (error) => failAll(new SFCECBuildError(`build worker failed: ${error.message}`, { cause: error })));
    created.on('exit', (code) => failAll(new SFCECBuildError(`build worker exited with code ${code}`)));
    return created;
  };
  return {
    run: (job: Omit<WorkerJob, 'id'>, onProgress: BuildParams['onProgress']): Promise<BuiltBundle> => {
      worker ??= start();
      const id = nextId++;
      const active = worker;
      active.ref(); // a running job keeps the process alive; an idle worker does not
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress });
        active.postMessage({ ...job, id } satisfies WorkerJob);
      });
    },
    close: (): void => {
      const current = worker;
      worker = null;
      void current?.terminate();
    },
  };
};

/**
 * Runs writeBundle in the app's build worker so the caller's event loop stays free. The worker opens its own
 * connection to the app's SQLite file; a `:memory:` app has nothing to share, so it needs a data dir.
 */
export const writeBundleInWorker = (app: App, params: BuildParams): Promise<BuiltBundle> => {
  if (app.dataDir === null) {
    return Promise.reject(new SFCECBuildError('buildBundleAsync needs an app with a data dir (not :memory:)'));
  }
  const { onProgress, ...rest } = params;
  const worker = service(app, 'cec.buildWorker', createBuildWorker);
  return worker.run({ dataDir: app.dataDir, env: plainEnv(app.env), now: app.now().toISOString(), params: rest }, onProgress);
};
