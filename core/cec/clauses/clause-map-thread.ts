import type { App } from '../../app.ts';
import { envSetting } from '../../config/env-settings.ts';
import { cecWorkerUrl, plainEnv, spawnWorker } from '../spawn-worker.ts';
import { type ProjectClauseMap, projectClauseMap } from './clause-map.ts';
import type { FrameworkId } from './types.ts';

export type ClauseMapQuery = { projectId: string; from?: string; to?: string; frameworks: readonly FrameworkId[] };
export type ClauseMapJob = {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly now: string;
  readonly query: ClauseMapQuery;
};
export type ClauseMapReply = { readonly ok: true; readonly value: ProjectClauseMap } | { readonly ok: false; readonly message: string };

/** Below this many records the aggregation takes less time than starting a worker. */
export const clauseMapThreadRecords = 20_000;

const workerUrl = cecWorkerUrl('clauses/clause-map-worker');

/**
 * Whether a worker opening its app from `app`'s data dir and env (openApp) reaches the same storage: the data
 * dir's SQLite file, or the PostgreSQL database SVC_DATABASE_URL names. An app handed a database its env does
 * not name (a test's) is computed on this thread rather than against another store.
 */
const workerReachesStorage = (app: App): boolean => (envSetting(app.env, 'databaseUrl') === '') === (app.database.dialect === 'sqlite');

/**
 * The project's clause map, computed on a worker thread as of `now` (started at once, so it runs beside the
 * caller's work) when the project holds at least `minRecords` records in range and a worker can open the app's
 * storage; otherwise on this thread when awaited. `stop()` ends an unfinished worker (a failed build).
 */
export const clauseMapInBackground = (
  app: App,
  query: ClauseMapQuery,
  now: Date,
  records: number,
  minRecords = clauseMapThreadRecords,
): { readonly result: () => Promise<ProjectClauseMap>; stop(): void } => {
  if (records < minRecords || workerUrl === null || app.dataDir === null || !workerReachesStorage(app)) {
    return { result: async () => projectClauseMap(app, query), stop: () => undefined };
  }
  const job: ClauseMapJob = { dataDir: app.dataDir, env: plainEnv(app.env), now: now.toISOString(), query };
  const worker = spawnWorker(workerUrl, { workerData: job });
  const done = new Promise<ProjectClauseMap>((resolve, reject) => {
    worker.once('message', (reply: ClauseMapReply) =>
      reply.ok ? resolve(reply.value) : reject(new Error(`clause map: ${reply.message}`)),
    );
    worker.once('error', (error) => reject(new Error(`clause map worker failed: ${error.message}`)));
    worker.once('exit', (code) => reject(new Error(`clause map worker exited with code ${code}`)));
  });
  done.catch(() => undefined); // awaited by result(), or dropped after stop()
  return { result: () => done, stop: () => void worker.terminate() };
};
