/**
 * The messages between the verifier and its folder workers (verify-folder-worker.ts), and the batch format:
 * items of one folder in line order, packed so a batch crosses threads as a few typed arrays and strings
 * instead of an object per record.
 */
import type { FolderDigest, FolderItem, FolderJob } from './folder-records.ts';

/** Records per batch (tests pass fewer), and batches a worker may send ahead of the merge per folder (bounds memory). */
export const defaultBatchRecords = 2048;
export const batchesAhead = 4;

const NOT_JSON = 254;
const MALFORMED = 255;

export type Batch = {
  readonly count: number;
  readonly seqs: Float64Array;
  /** Problem flags of a record, or NOT_JSON / MALFORMED for a line that is not one. */
  readonly codes: Uint8Array;
  /** hash + prev_hash of each record, 64 UTF-16 units each (the envelope check guarantees the lengths). */
  readonly hashes: string;
  /** recorded_at of each record as an index into `recorded` (consecutive records share a batch's value). */
  readonly recordedIndex: Uint32Array;
  readonly recorded: readonly string[];
};

export type ToWorker =
  | { readonly type: 'folder'; readonly folder: number; readonly fd: number; readonly job: FolderJob; readonly batchRecords: number }
  | { readonly type: 'credit'; readonly folder: number };

export type FromWorker =
  | { readonly type: 'batch'; readonly folder: number; readonly batch: Batch }
  | { readonly type: 'end'; readonly folder: number; readonly digest: FolderDigest }
  | { readonly type: 'error'; readonly folder: number; readonly message: string; readonly archive: boolean };

/** Packs a folder's items into a batch (worker side). */
export class BatchWriter {
  count = 0;
  readonly #seqs: Float64Array;
  readonly #codes: Uint8Array;
  readonly #recordedIndex: Uint32Array;
  #hashes: string[] = [];
  readonly #recorded: string[] = [];

  constructor(readonly size: number) {
    this.#seqs = new Float64Array(size);
    this.#codes = new Uint8Array(size);
    this.#recordedIndex = new Uint32Array(size);
  }

  get full(): boolean {
    return this.count === this.size;
  }

  add(item: FolderItem): void {
    const i = this.count;
    this.count += 1;
    if (item === 'not-json' || item === 'malformed') {
      this.#codes[i] = item === 'not-json' ? NOT_JSON : MALFORMED;
      return;
    }
    this.#seqs[i] = item.seq;
    this.#codes[i] = item.problems;
    this.#hashes.push(item.hash, item.prev_hash);
    if (this.#recorded.at(-1) !== item.recorded_at) this.#recorded.push(item.recorded_at);
    this.#recordedIndex[i] = this.#recorded.length - 1;
  }

  /** The batch and the buffers to transfer with it. */
  take(): { batch: Batch; transfer: ArrayBuffer[] } {
    const batch: Batch = {
      count: this.count,
      seqs: this.#seqs.slice(0, this.count),
      codes: this.#codes.slice(0, this.count),
      hashes: this.#hashes.join(''),
      recordedIndex: this.#recordedIndex.slice(0, this.count),
      recorded: [...this.#recorded],
    };
    this.count = 0;
    this.#hashes = [];
    this.#recorded.length = 0;
    return { batch, transfer: [batch.seqs.buffer, batch.codes.buffer, batch.recordedIndex.buffer] as ArrayBuffer[] };
  }
}

/** Reads a batch's items in order (verifier side). */
export class BatchReader {
  #i = 0;
  #h = 0;

  constructor(readonly batch: Batch) {}

  /** The next item, or undefined when the batch is used up. */
  next(): FolderItem | undefined {
    const { batch } = this;
    const i = this.#i;
    if (i >= batch.count) return undefined;
    this.#i = i + 1;
    const code = batch.codes[i] as number;
    if (code === NOT_JSON) return 'not-json';
    if (code === MALFORMED) return 'malformed';
    const h = this.#h;
    this.#h = h + 128;
    return {
      seq: batch.seqs[i] as number,
      hash: batch.hashes.slice(h, h + 64),
      prev_hash: batch.hashes.slice(h + 64, h + 128),
      recorded_at: batch.recorded[batch.recordedIndex[i] as number] as string,
      problems: code,
    };
  }
}
