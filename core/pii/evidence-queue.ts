/**
 * Group commit of scan evidence: every scan waits until its `pii_detections` record is durable, yet scans that
 * finish while batches are being written share the next batch's transaction and fsync. A serving app writes
 * them on its evidence writer thread (pool/evidence-writer.ts); otherwise on its own connection, with the fsync
 * off the event loop (TransactionOptions.syncOffThread: on SQLite a COMMIT under synchronous = FULL blocked the
 * main thread for the whole fsync, and every HTTP request waited behind it). On the app's connection two batches
 * may be in flight: the next one commits as soon as the last one's COMMIT is done, so a scan waits for about one
 * fsync rather than the rest of the previous batch's and then its own. The writer thread runs its batches one
 * after the other anyway, so there one is in flight and the scans that finish meanwhile make the next batch.
 */
import { type App, service } from '../app.ts';
import { noteAppended } from '../audit/anchors/scheduler.ts';
import { appendEvidence } from '../audit/store.ts';
import type { EvidenceInput } from '../audit/types.ts';
import { appendEach } from './evidence-batch.ts';
import { evidenceWriterOf } from './pool/scanner.ts';
import { recordScanTime } from './status.ts';

type PendingRecord = { readonly input: EvidenceInput; readonly at: string; readonly done: (error?: unknown) => void };
type EvidenceQueue = { pending: PendingRecord[]; writing: number; scheduled: boolean };

/**
 * Batches written at once. On the app's connection two: with one, the next commit would wait for the last one's
 * fsync; more would only make smaller batches (more fsyncs) for the same wait. On the writer thread one: a second
 * batch would only wait in its port behind the first, and splitting the scans into two batches cost a transaction,
 * an fsync and a wake-up of the thread more per batch: about a tenth of a 1 KB scan's CPU under load
 * (docs/decisions.md, "PII over HTTP, sixth pass").
 */
const batchesInFlight = (app: App): number => (evidenceWriterOf(app) === undefined ? 2 : 1);

/**
 * Each input's outcome (undefined once durable): on the app's evidence writer thread when its scan workers
 * started one (the thread commits with its fsync inside COMMIT), else on the app's connection with the fsync off
 * the event loop. A writer thread that dies fails the whole batch.
 */
const appendAll = async (app: App, inputs: readonly EvidenceInput[]): Promise<readonly unknown[]> => {
  const writer = evidenceWriterOf(app);
  if (writer === undefined) return appendEach((batch) => appendEvidence(app, batch, { syncOffThread: true }), inputs);
  try {
    const outcomes = await writer.write(inputs, app.now());
    noteAppended(
      app,
      inputs.filter((_, i) => outcomes[i] === undefined).map((input) => input.project_id),
    );
    return outcomes;
  } catch (error) {
    return inputs.map(() => error);
  }
};

/**
 * Writes one batch (appendAll), then moves last_scan_at to the latest committed scan (status.ts): after the
 * evidence committed, so it can lag the evidence, never run ahead of it.
 */
const writeBatch = async (app: App, batch: readonly PendingRecord[]): Promise<void> => {
  const outcomes = await appendAll(
    app,
    batch.map((record) => record.input),
  );
  const latest = batch
    .filter((_, i) => outcomes[i] === undefined)
    .map((record) => record.at)
    .sort()
    .at(-1);
  if (latest !== undefined) void recordScanTime(app, latest);
  for (const [i, record] of batch.entries()) record.done(outcomes[i]);
};

/**
 * Starts a batch of what is queued, in the next event-loop turn (scans finishing in this one join it), unless
 * `batchesInFlight` are being written: then the first of them to end starts it.
 */
const schedule = (app: App, queue: EvidenceQueue): void => {
  if (queue.scheduled || queue.writing >= batchesInFlight(app) || queue.pending.length === 0) return;
  queue.scheduled = true;
  setImmediate(() => {
    queue.scheduled = false;
    const batch = queue.pending;
    queue.pending = [];
    queue.writing += 1;
    void writeBatch(app, batch).finally(() => {
      queue.writing -= 1;
      schedule(app, queue);
    });
    schedule(app, queue);
  });
};

/** Appends `input` to its project's chain; resolves once it is durable, rejects with what failed it. */
export const appendDurably = (app: App, input: EvidenceInput, at: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const queue = service(app, 'pii.evidenceQueue', (): EvidenceQueue => ({ pending: [], writing: 0, scheduled: false }));
    queue.pending.push({ input, at, done: (error) => (error === undefined ? resolve() : reject(error)) });
    schedule(app, queue);
  });
