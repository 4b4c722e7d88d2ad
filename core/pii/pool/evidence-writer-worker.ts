/**
 * The evidence writer thread (evidence-writer.ts): appends scan evidence batches on its own connection to the
 * app's SQLite file, so that their validation, hashing, INSERTs, COMMIT and fsync leave the event loop that
 * serves HTTP. A batch is one transaction under the file's synchronous = FULL: its fsync runs inside COMMIT,
 * before any connection can see the commit, so nobody reads scan evidence that is not durable yet. BEGIN
 * IMMEDIATE serialises it with the app's own writers (the chain head is read inside each transaction). Bundles
 * ship it as `evidence-writer-worker.<ext>` beside themselves (spawn.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { appendToChain } from '../../audit/append.ts';
import { openDatabase } from '../../store/db.ts';
import { sqliteDatabase } from '../../store/sqlite-database.ts';
import { appendEach } from '../evidence-batch.ts';
import type { EvidenceBatch, EvidenceBatchReply, EvidenceWriterConfig } from './protocol.ts';
import { toWorkerError } from './worker-error.ts';

const port = parentPort;
if (port === null) throw new Error('evidence-writer-worker.ts runs as a worker thread only');
const config = workerData as EvidenceWriterConfig;
// The app's connection migrated the file before this thread started: nothing to apply.
const db = openDatabase(config.file, [], config.nativeBinding);
const target = { database: sqliteDatabase(db), sqlite: db };

port.on('message', async (batch: EvidenceBatch) => {
  const now = new Date(batch.now);
  const outcomes = await appendEach((inputs) => appendToChain(target, inputs, now), batch.inputs);
  const reply: EvidenceBatchReply = {
    id: batch.id,
    failures: outcomes.map((error) => (error === undefined ? null : toWorkerError(error))),
  };
  port.postMessage(reply);
});
