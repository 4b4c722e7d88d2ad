/**
 * The upper half of a split bundle-build pass (segment-split.ts): on its own connection to the parent's storage
 * (openApp), re-hashes, re-links and encodes the in-range records after `job.after`
 * into plain per-entry files, and replies with its totals, chain verdict and clause-map tally.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openApp } from '../app.ts';
import { chainRows } from '../audit/store.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { EvidenceTally } from './clauses/evidence-tally.ts';
import { PlainFile } from './plain-file.ts';
import { passRange } from './range-pass.ts';
import { type SegmentJob, type SegmentReply, splitPageRows, upperPartPath } from './segment-split.ts';

const port = parentPort;
if (port === null) throw new TypeError('segment-range-worker must run in a worker thread');
const job = workerData as SegmentJob;

const run = async (): Promise<SegmentReply> => {
  const files: PlainFile[] = [];
  try {
    const app = await openApp({ dataDir: job.dataDir, env: job.env });
    try {
      let seed = null;
      for await (const row of chainRows(app.database, job.projectId, job.after, job.after))
        seed = { seq: row.seq, prev_hash: row.prev_hash, hash: row.hash };
      if (seed === null) throw new Error(`seq ${job.after} is not in the chain`);
      const records = Object.fromEntries(schemaKeys.map((key) => [key, new PlainFile(upperPartPath(job.workDir, key))])) as Record<
        SchemaKey,
        PlainFile
      >;
      const witnesses = new PlainFile(upperPartPath(job.workDir, 'witnesses'));
      files.push(...Object.values(records), witnesses);
      const tally = job.tally ? new EvidenceTally() : null;
      const span = { after: job.after, through: Number.MAX_SAFE_INTEGER };
      const { linker, ...totals } = await passRange(
        app,
        job.projectId,
        job.range,
        span,
        seed,
        { records, witnesses },
        { tally, pageRows: splitPageRows },
      );
      for (const file of files) file.finish();
      return { ok: true, part: { ...totals, seed, linker: linker.state(), tally: tally?.state() ?? null } };
    } finally {
      await app.close();
    }
  } catch (error) {
    for (const file of files) file.close();
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
};

// Held open until the reply is sent: on PostgreSQL the pool lets idle clients go unref'd and the settings LISTEN
// socket is unref'd, so between two awaits the thread could otherwise find nothing alive and exit without a reply.
port.ref();
port.postMessage(await run());
port.unref();
