import { parentPort } from 'node:worker_threads';
import { type App, createApp, openApp } from '../app.ts';
import { envSetting } from '../config/env-settings.ts';
import { envOnlySettings } from '../config/settings-schema.ts';
import { AppError, type ErrorCode } from '../errors.ts';
import { domainsNotYetOnPostgres } from '../store/postgres-readiness.ts';
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
 * The worker's own app on the parent's storage: the SQLite file of the data dir, or, when the parent runs on
 * PostgreSQL (SVC_DATABASE_URL in the job's env), a pool of its own on the same database. The parent already
 * migrated it and passed the start-up checks. Once every domain has moved this is openApp, as for the parent;
 * until then the domains that are still SQLite-only read the data dir's file, as the parent does (docs/decisions.md,
 * "Bundles, keys and DPAs on PostgreSQL"). The URL is never logged: connection errors show it with the password masked.
 */
const openJobApp = async (job: WorkerJob): Promise<{ app: App; close: () => Promise<void> }> => {
  const offset = Date.parse(job.now) - Date.now();
  const options = { dataDir: job.dataDir, now: () => new Date(Date.now() + offset) };
  const databaseUrl = envSetting(job.env, 'databaseUrl');
  if (databaseUrl === '') {
    const app = createApp({ ...options, env: job.env });
    return { app, close: () => app.close() };
  }
  if (domainsNotYetOnPostgres.length === 0) {
    const app = await openApp({ ...options, env: job.env });
    return { app, close: () => app.close() };
  }
  const { connectPostgres, postgresDatabase } = await import('../store/postgres-database.ts');
  const database = postgresDatabase(await connectPostgres(databaseUrl, { source: envOnlySettings.databaseUrl.env, max: 2 }));
  const { [envOnlySettings.databaseUrl.env]: _url, ...env } = job.env;
  const app = createApp({ ...options, env, database });
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
};

/** Runs one build on its own connection to the parent's storage, reporting progress to the parent. */
const run = async (job: WorkerJob, port: NonNullable<typeof parentPort>): Promise<void> => {
  let opened: Awaited<ReturnType<typeof openJobApp>>;
  try {
    opened = await openJobApp(job);
  } catch (error) {
    port.postMessage({ type: 'error', id: job.id, error: toWorkerError(error) } satisfies WorkerMessage);
    return;
  }
  try {
    const built = await writeBundle(opened.app, {
      ...job.params,
      onProgress: (done, total, message) =>
        port.postMessage({ type: 'progress', id: job.id, done, total, message } satisfies WorkerMessage),
    });
    port.postMessage({ type: 'done', id: job.id, built } satisfies WorkerMessage);
  } catch (error) {
    port.postMessage({ type: 'error', id: job.id, error: toWorkerError(error) } satisfies WorkerMessage);
  } finally {
    await opened.close();
  }
};

const port = parentPort;
if (port === null) throw new TypeError('build-worker must run in a worker thread');
port.on('message', (job: WorkerJob) => void run(job, port));
port.postMessage({ type: 'ready' });
