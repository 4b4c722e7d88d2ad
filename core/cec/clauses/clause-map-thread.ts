import type { App } from '../../app.ts';
import { cecWorkerUrl, plainEnv, spawnWorker, workerReachesStorage } from '../spawn-worker.ts';
import { type ClauseMapQuery, clauseMapOf, type ProjectClauseMap, projectClauseMap } from './clause-map.ts';
import { EvidenceTally } from './evidence-tally.ts';

export type ClauseMapJob = {
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly now: string;
  readonly query: ClauseMapQuery;
};
export type ClauseMapReply = { readonly ok: true; readonly value: ProjectClauseMap } | { readonly ok: false; readonly message: string };

/**
 * From this many records a bundle build aggregates the clause map in SQL on a worker (the other core) rather
 * than tallying it in its own pass, where each record's payload costs a JSON.parse on the build's critical path.
 */
export const clauseMapWorkerRecords = 100_000;

const workerUrl = cecWorkerUrl('clauses/clause-map-worker');

/** A bundle build's clause map: tallied from the rows its pass reads (`tally`), or aggregated on a worker. */
export type BuildClauseMap = {
  /** Feed it every in-range row of the pass, in seq order; null when a worker aggregates. */
  readonly tally: EvidenceTally | null;
  /** The clause map as of the end of the pass (call once the pass is done). */
  readonly result: () => Promise<ProjectClauseMap>;
  /** Ends an unfinished worker (a failed build). */
  stop(): void;
};

/**
 * The clause map of a build over `records` records. Below `workerFrom` (or when no worker can open the app's
 * storage) the pass tallies it, and SQL on this thread takes over only when the tally cannot vouch for a value
 * (evidence-tally.ts). From `workerFrom` on, a worker opens its own connection and aggregates in SQL as of
 * `now`, started at once so it runs beside the pass.
 */
export const clauseMapForBuild = (
  app: App,
  query: ClauseMapQuery,
  now: Date,
  records: number,
  workerFrom = clauseMapWorkerRecords,
): BuildClauseMap => {
  if (records < workerFrom || workerUrl === null || app.dataDir === null || !workerReachesStorage(app)) {
    const tally = new EvidenceTally();
    return {
      tally,
      result: async () => {
        const assessment = tally.result();
        return assessment === null ? projectClauseMap(app, query) : clauseMapOf(app, query, assessment);
      },
      stop: () => undefined,
    };
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
  return { tally: null, result: () => done, stop: () => void worker.terminate() };
};
