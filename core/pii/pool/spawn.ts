/**
 * Where the scan worker lives, in development and in a build:
 * - run from source (this module is `.ts`, under tsx or vitest): `./pii-scan-worker.ts` beside this file, loaded
 *   through an eval'd bootstrap that registers tsx first (on Node 20 `--import tsx` in a worker's execArgv does
 *   not reach the worker's entry module);
 * - bundled (this module is inside `dist-electron/main.mjs` or a chunk of the CLI build in `dist/`): the prebuilt
 *   `pii-scan-worker.<same extension>` beside it. scripts/build-cli.mjs writes every `*-worker.ts` under core/ as
 *   `dist/<name>.mjs`; scripts/build-electron.mjs writes `dist-electron/pii-scan-worker.mjs`.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { WorkerConfig } from './protocol.ts';

const here = import.meta.url;

export const scanWorkerUrl = (): URL =>
  here.endsWith('.ts') ? new URL('./pii-scan-worker.ts', here) : new URL(`./pii-scan-worker${extname(fileURLToPath(here))}`, here);

/** Starts a worker from `url`: TypeScript through tsx, JavaScript directly. */
export const spawnWorker = (url: URL, config: WorkerConfig): Worker => {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: config });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: config });
};
