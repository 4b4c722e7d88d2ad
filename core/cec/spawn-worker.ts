/**
 * Where a CEC worker lives, from source and in a build: from source (this module is `.ts`, under tsx or vitest)
 * the TypeScript file beside it (started through tsx by core/worker-thread.ts); bundled, the prebuilt
 * `<name>.mjs` that scripts/build-cli.mjs writes beside the chunks for every `*-worker.ts`.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../app.ts';
import { envSetting } from '../config/env-settings.ts';

const here = import.meta.url;

/** The worker at `path` under core/cec/ (e.g. `verify-folder-worker`), or null when this build lacks it. */
export const cecWorkerUrl = (path: string): URL | null => {
  const url = here.endsWith('.ts')
    ? new URL(`./${path}.ts`, here)
    : new URL(`./${path.split('/').at(-1)}${extname(fileURLToPath(here))}`, here);
  return existsSync(fileURLToPath(url)) ? url : null;
};

/** The string-valued part of an environment, as a worker's data (structured clone drops nothing silently). */
export const plainEnv = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));

/**
 * Whether a worker opening its app from `app`'s data dir and env (openApp) reaches the same storage: the data
 * dir's SQLite file, or the PostgreSQL database SVC_DATABASE_URL names. An app handed a database its env does
 * not name (a test's) is computed on this thread rather than against another store.
 */
export const workerReachesStorage = (app: App): boolean =>
  (envSetting(app.env, 'databaseUrl') === '') === (app.database.dialect === 'sqlite');
