import { Worker } from 'node:worker_threads';
import type { App } from '../app.ts';
import { SFCECBuildError } from '../errors.ts';
import type { BuildParams, BuiltBundle } from './build.ts';
import type { WorkerJob, WorkerMessage } from './build-worker.ts';

const workerUrl = new URL('./build-worker.ts', import.meta.url).href;
/**
 * `--import tsx` in a worker's execArgv does not reach the worker's own entry module on Node 20, so a tiny
 * eval'd bootstrap registers tsx's ESM hooks first and then imports the TypeScript worker.
 */
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(workerUrl)}); })`;

const plainEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/**
 * Runs writeBundle in a worker thread so the caller's event loop stays free. The worker is TypeScript, so it
 * is started through tsx's register API (works under vitest and under `node --import tsx` alike). The worker opens its
 * own connection to the app's SQLite file; a `:memory:` app has nothing to share, so it needs a data dir.
 */
export const writeBundleInWorker = (app: App, params: BuildParams): Promise<BuiltBundle> => {
  if (app.dataDir === null) {
    return Promise.reject(new SFCECBuildError('buildBundleAsync needs an app with a data dir (not :memory:)'));
  }
  const { onProgress, ...rest } = params;
  const job: WorkerJob = { dataDir: app.dataDir, env: plainEnv(app.env), now: app.now().toISOString(), params: rest };
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true, workerData: job });
    let settled = false;
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'progress') onProgress?.(message.done, message.total, message.message);
      else if (message.type === 'done') {
        settled = true;
        resolve(message.built);
      } else {
        settled = true;
        reject(new SFCECBuildError(message.message));
      }
    });
    worker.on('error', (error) => {
      settled = true;
      reject(new SFCECBuildError(`build worker failed: ${error.message}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new SFCECBuildError(`build worker exited with code ${code}`));
    });
  });
};
