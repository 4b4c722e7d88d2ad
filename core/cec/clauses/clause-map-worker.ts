/**
 * Computes a project's clause map on its own connection to the parent's storage (the data dir's SQLite file, or
 * the PostgreSQL database named by SVC_DATABASE_URL in the job's env, through openApp), so a bundle build can
 * aggregate the evidence (SQL over every record's payload) on another core while its segment pass runs.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openApp } from '../../app.ts';
import type { ClauseMapJob, ClauseMapReply } from './clause-map-thread.ts';
import { projectClauseMap } from './clause-map.ts';

const port = parentPort;
if (port === null) throw new TypeError('clause-map-worker must run in a worker thread');
const job = workerData as ClauseMapJob;
const now = new Date(job.now);

const compute = async (): Promise<ClauseMapReply> => {
  try {
    const app = await openApp({ dataDir: job.dataDir, env: job.env, now: () => now });
    try {
      return { ok: true, value: await projectClauseMap(app, job.query) };
    } finally {
      await app.close();
    }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
};

// Held open until the reply is sent: on PostgreSQL the pool lets idle clients go unref'd and the settings LISTEN
// socket is unref'd, so between two awaits the thread could otherwise find nothing alive and exit without a reply.
port.ref();
port.postMessage(await compute());
port.unref();
