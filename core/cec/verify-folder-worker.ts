/**
 * A folder worker of the bundle verifier: inflates, hashes and checks the record lines of the NDJSON folders it
 * is given (several side by side, each on the verifier's own file descriptor, so it reads the very file the
 * strict reader validated) and sends them to the verifier in batches. Each folder may run `batchesAhead`
 * batches ahead of the verifier's merge, so memory stays bounded whatever the bundle size.
 */
import { parentPort } from 'node:worker_threads';
import { BatchWriter, batchesAhead, type FromWorker, type ToWorker } from './folder-batch.ts';
import { LocalFolder } from './folder-records.ts';
import { ArchiveError } from './zip-errors.ts';

const port = parentPort;
if (port === null) throw new TypeError('verify-folder-worker must run in a worker thread');

type Credit = { left: number; wake: (() => void) | null };
const credits = new Map<number, Credit>();
const send = (message: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(message, transfer);

const run = async (message: Extract<ToWorker, { type: 'folder' }>): Promise<void> => {
  const { folder } = message;
  const credit: Credit = { left: batchesAhead, wake: null };
  credits.set(folder, credit);
  const source = new LocalFolder({ fd: message.fd }, message.job);
  const writer = new BatchWriter(message.batchRecords);
  const flush = async (): Promise<void> => {
    while (credit.left === 0) await new Promise<void>((resolve) => (credit.wake = resolve));
    credit.left -= 1;
    const { batch, transfer } = writer.take();
    send({ type: 'batch', folder, batch }, transfer);
  };
  try {
    for (;;) {
      const item = source.next();
      if (item === null) break;
      if (item === undefined) await source.fill();
      else {
        writer.add(item);
        if (writer.full) await flush();
      }
    }
    if (writer.count > 0) await flush();
    send({ type: 'end', folder, digest: source.digest() });
  } catch (error) {
    await source.close().catch(() => undefined);
    send({
      type: 'error',
      folder,
      message: error instanceof Error ? error.message : String(error),
      archive: error instanceof ArchiveError,
    });
  } finally {
    credits.delete(folder);
  }
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'folder') {
    void run(message);
    return;
  }
  const credit = credits.get(message.folder);
  if (credit === undefined) return;
  credit.left += 1;
  const wake = credit.wake;
  credit.wake = null;
  wake?.();
});
