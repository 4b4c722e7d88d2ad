/**
 * Messages between the scan pool (pool.ts) and its workers (pii-scan-worker.ts), and between the evidence queue
 * and its writer thread (evidence-writer.ts, evidence-writer-worker.ts): plain, structured-clonable data.
 */
import type { EvidenceInput } from '../../audit/types.ts';
import type { ErrorCode } from '../../errors.ts';
import type { EngineScanOptions, ScanResult } from '../types.ts';

/** What a worker needs to build the same engine as the main thread (full-engine.ts). */
export type WorkerConfig = { readonly customRecognizersFile?: string };

export type ScanJob = {
  readonly id: number;
  readonly text: string;
  readonly options: EngineScanOptions;
  /** Progress messages cost a post each: only scans of large texts ask for them. */
  readonly reportProgress: boolean;
};

/** An error as it crosses the thread boundary: an AppError keeps its code (a bad request stays a 400). */
export type WorkerError = { readonly message: string; readonly code?: ErrorCode };

export type WorkerReply =
  /** The engine is built and warmed up: the worker takes jobs. */
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly id: number; readonly done: number; readonly total: number; readonly recognizer: string }
  | { readonly type: 'done'; readonly id: number; readonly result: ScanResult }
  | { readonly type: 'error'; readonly id: number; readonly error: WorkerError };

/** What the evidence writer thread (evidence-writer-worker.ts) opens: the app's SQLite file, with the app's build. */
export type EvidenceWriterConfig = { readonly file: string; readonly nativeBinding: string };

/** Scan evidence to append in one transaction; `now` is the app's clock (recorded_at, and the inputs' checks). */
export type EvidenceBatch = { readonly id: number; readonly now: string; readonly inputs: readonly EvidenceInput[] };

/** Each input's outcome, in order: null once durable, else what failed it. */
export type EvidenceBatchReply = { readonly id: number; readonly failures: readonly (WorkerError | null)[] };
