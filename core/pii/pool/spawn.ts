/**
 * Where the PII workers (the scan workers, the evidence writer) live, in development and in a build:
 * - run from source (this module is `.ts`, under tsx or vitest): `./<name>.ts` beside this file, loaded
 *   through an eval'd bootstrap that registers tsx first (on Node 20 `--import tsx` in a worker's execArgv does
 *   not reach the worker's entry module);
 * - bundled (this module is inside `dist-electron/main.mjs` or a chunk of the CLI build in `dist/`): the prebuilt
 *   `<name>.<same extension>` beside it. scripts/build-cli.mjs writes every `*-worker.ts` under core/ as
 *   `dist/<name>.mjs`; scripts/build-electron.mjs writes both into `dist-electron/`.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = import.meta.url;

const workerUrl = (name: 'pii-scan-worker' | 'evidence-writer-worker'): URL =>
  here.endsWith('.ts') ? new URL(`./${name}.ts`, here) : new URL(`./${name}${extname(fileURLToPath(here))}`, here);

export const scanWorkerUrl = (): URL => workerUrl('pii-scan-worker');
export const evidenceWriterUrl = (): URL => workerUrl('evidence-writer-worker');

/** Starts a worker from `url` with `workerData`: TypeScript through tsx, JavaScript directly. */
export const spawnWorker = (url: URL, workerData: unknown): Worker => {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData });
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { eval: true, workerData });
};
