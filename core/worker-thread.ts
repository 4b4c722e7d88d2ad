/**
 * Starting one of core's worker threads, from source or from a build: a TypeScript entry (this module runs under
 * tsx or vitest) is loaded through an eval'd bootstrap that registers tsx first (on Node 20 `--import tsx` in a
 * worker's execArgv does not reach the worker's entry module); a prebuilt JavaScript entry directly.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

export const spawnWorker = (url: URL, options: WorkerOptions = {}): Worker => {
  if (!url.pathname.endsWith('.ts')) return new Worker(url, options);
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
};
