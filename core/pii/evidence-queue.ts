/**
 * Group commit of scan evidence: every scan waits until its `pii_detections` record is durable, yet scans that
 * finish while batches are being written share the next batch's transaction and fsync. The fsync runs off the
 * event loop (TransactionOptions.syncOffThread): on SQLite a COMMIT under synchronous = FULL blocked the main
 * thread for the whole fsync, and every HTTP request waited behind it. Two batches may be in flight: the next
 * one commits while the last one's fsync runs, so a scan waits for about one fsync rather than the rest of the
 * previous batch's and then its own.
 */
import { type App, service } from '../app.ts';
import { appendEvidence } from '../audit/store.ts';
import type { EvidenceInput } from '../audit/types.ts';
import { CommittedNotSynced } from '../store/database.ts';
import { recordScanTime } from './status.ts';

type PendingRecord = { readonly input: EvidenceInput; readonly at: string; readonly done: (error?: unknown) => void };
type EvidenceQueue = { pending: PendingRecord[]; writing: number; scheduled: boolean };

/** More would only make smaller batches (more fsyncs) for the same wait; fewer serialises commit and fsync. */
const batchesInFlight = 2;

const append = async (app: App, records: readonly PendingRecord[]): Promise<void> => {
  await appendEvidence(
    app,
    records.map((record) => record.input),
    { syncOffThread: true },
  );
};

/**
 * Writes one batch in one append (one transaction, one fsync); a failed batch is retried one by one, so one bad
 * record cannot fail the others, unless it committed and only its fsync failed (a retry would write it twice).
 * Then last_scan_at moves to the latest committed scan (status.ts): after the evidence committed, so it can lag
 * the evidence, never run ahead of it.
 */
const writeBatch = async (app: App, batch: readonly PendingRecord[]): Promise<void> => {
  const committed: PendingRecord[] = [];
  const failed = new Map<PendingRecord, unknown>();
  try {
    await append(app, batch);
    committed.push(...batch);
  } catch (error) {
    for (const record of batch) {
      if (error instanceof CommittedNotSynced) {
        failed.set(record, error);
        continue;
      }
      try {
        await append(app, [record]);
        committed.push(record);
      } catch (single) {
        failed.set(record, single);
      }
    }
  }
  const latest = committed
    .map((record) => record.at)
    .sort()
    .at(-1);
  if (latest !== undefined) void recordScanTime(app, latest);
  for (const record of batch) record.done(failed.get(record));
};

/**
 * Starts a batch of what is queued, in the next event-loop turn (scans finishing in this one join it), unless
 * `batchesInFlight` are being written: then the first of them to end starts it.
 */
const schedule = (app: App, queue: EvidenceQueue): void => {
  if (queue.scheduled || queue.writing >= batchesInFlight || queue.pending.length === 0) return;
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
