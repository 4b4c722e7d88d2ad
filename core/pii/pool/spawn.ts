/**
 * Where the PII workers (the scan workers, the evidence writer) live, in development and in a build:
 * - run from source (this module is `.ts`, under tsx or vitest): `./<name>.ts` beside this file (started
 *   through tsx by core/worker-thread.ts);
 * - bundled (this module is inside `dist-electron/main.mjs` or a chunk of the CLI build in `dist/`): the prebuilt
 *   `<name>.<same extension>` beside it. scripts/build-cli.mjs writes every `*-worker.ts` under core/ as
 *   `dist/<name>.mjs`; scripts/build-electron.mjs writes both into `dist-electron/`.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = import.meta.url;

const workerUrl = (name: 'pii-scan-worker' | 'evidence-writer-worker'): URL =>
  here.endsWith('.ts') ? new URL(`./${name}.ts`, here) : new URL(`./${name}${extname(fileURLToPath(here))}`, here);

export const scanWorkerUrl = (): URL => workerUrl('pii-scan-worker');
export const evidenceWriterUrl = (): URL => workerUrl('evidence-writer-worker');
