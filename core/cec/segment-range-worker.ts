/**
 * The upper part of a split bundle-build pass (segment-split.ts): on its own connection to the parent's storage,
 * re-hashes, re-links and encodes the in-range records after `job.after` into plain per-entry files (posting each
 * file's length after every write, so the building thread can append them while they grow), and replies
 * with its totals, chain verdict, clause-map tally and each part's CRC-32. On SQLite it opens a read-only
 * connection and nothing of the app (no zod, no app graph: a worker starting in tens of ms lets the split pay
 * from fewer records); on PostgreSQL it opens the app (openApp: pool, TLS and schema settings from the env),
 * loaded only then.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { chainRows } from '../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import type { Queryable } from '../store/database.ts';
import { readerOf } from '../store/sqlite-database.ts';
import { EvidenceTally } from './clauses/evidence-tally.ts';
import { PlainFile } from './plain-file.ts';
import type { PartDigest } from './running-crc.ts';
import { passRange } from './range-pass.ts';
import { type PartName, type PartWritten, type SegmentJob, type SegmentReply, splitPageRows, upperPartPath } from './segment-part.ts';

const port = parentPort;
if (port === null) throw new TypeError('segment-range-worker must run in a worker thread');
const job = workerData as SegmentJob;

/** A part file whose every write is posted, so the building thread can append it while this thread writes. */
const partFile = (name: PartName): PlainFile =>
  new PlainFile(upperPartPath(job.workDir, name), (size) => port.postMessage({ written: name, size } satisfies PartWritten));

const openStorage = async (): Promise<{ readonly db: Queryable; close(): unknown }> => {
  if (job.sqliteFile !== null) {
    const reader = readerOf(job.sqliteFile);
    return { db: reader, close: () => reader.close() };
  }
  const { openApp } = await import('../app.ts');
  const app = await openApp({ dataDir: job.dataDir, env: job.env });
  return { db: app.database, close: () => app.close() };
};

const run = async (): Promise<SegmentReply> => {
  const files: PlainFile[] = [];
  try {
    const storage = await openStorage();
    try {
      let seed = null;
      for await (const row of chainRows(storage.db, job.projectId, job.after, job.after))
        seed = { seq: row.seq, prev_hash: row.prev_hash, hash: row.hash };
      if (seed === null) throw new Error(`seq ${job.after} is not in the chain`);
      const records = Object.fromEntries(schemaKeys.map((key) => [key, partFile(key)])) as Record<SchemaKey, PlainFile>;
      const witnesses = partFile('witnesses');
      files.push(...Object.values(records), witnesses);
      const tally = job.tally ? new EvidenceTally() : null;
      const span = { after: job.after, through: Number.MAX_SAFE_INTEGER };
      const { linker, ...totals } = await passRange(
        storage.db,
        job.projectId,
        job.range,
        span,
        seed,
        { records, witnesses },
        { tally, pageRows: splitPageRows },
      );
      witnesses.finish();
      const digests = Object.fromEntries(schemaKeys.map((key) => [key, records[key].finish()])) as Record<SchemaKey, PartDigest>;
      return { ok: true, part: { ...totals, seed, linker: linker.state(), tally: tally?.state() ?? null, digests } };
    } finally {
      await storage.close();
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
