/**
 * One NDJSON folder of a bundle as the chain check reads it: each line checked on its own (strict envelope,
 * nesting limit, record hash, folder, project, date range) and reduced to what the seq-ordered merge needs. The
 * same reader runs on the verifying thread or in a folder worker (verify-folder-worker.ts); the merge words the
 * verdicts from the problem flags, so both give the same result.
 */
import type { SchemaKey } from '../audit/types.ts';
import { inDateRange } from './dates.ts';
import { RecordLineChecker } from './record-line.ts';
import type { DateRange } from './types.ts';
import { LineSplitter } from './zip-reader.ts';
import type { StrictZip, ZipEntry } from './zip-strict.ts';

/** Problem flags of one record line (0: none); each becomes one error in the merge. */
export const problem = {
  hashMismatch: 1,
  tooDeep: 2,
  wrongFolder: 4,
  otherProject: 8,
  outOfRange: 16,
} as const;

/** What the merge needs of one record line, its own checks already applied. */
export type LinkRecord = {
  readonly seq: number;
  readonly hash: string;
  readonly prev_hash: string;
  readonly recorded_at: string;
  readonly problems: number;
};

/** A record, or a line that is not one. */
export type FolderItem = LinkRecord | 'not-json' | 'malformed';

/** Records must belong to the manifest's project and date range (null when the manifest did not parse). */
export type FolderScope = { readonly projectId: string; readonly range: DateRange } | null;

export type FolderJob = {
  readonly key: SchemaKey;
  readonly entry: ZipEntry;
  readonly maxLineBytes: number;
  readonly maxDepth: number;
  readonly scope: FolderScope;
};

/** SHA-256 and size of a folder entry as read. */
export type FolderDigest = { readonly sha256: string; readonly size: number };

/** A folder's items in line order, pulled: `next()` answers from what is read, `fill()` reads on. */
export interface FolderSource {
  readonly key: SchemaKey;
  readonly name: string;
  /** The next item, `undefined` when more must be read first (`fill`), `null` after the last one. */
  next(): FolderItem | null | undefined;
  fill(): Promise<void>;
  /** After `next()` returned null. */
  digest(): FolderDigest;
  /** Stops reading early (on a fatal error elsewhere). */
  close(): Promise<void>;
}

/** Reads and checks a folder on the calling thread. */
export class LocalFolder implements FolderSource {
  readonly key: SchemaKey;
  readonly name: string;
  readonly #lines: LineSplitter;
  readonly #checker: RecordLineChecker;
  readonly #scope: FolderScope;

  constructor(zip: Pick<StrictZip, 'fd'>, job: FolderJob) {
    this.key = job.key;
    this.name = job.entry.name;
    this.#lines = new LineSplitter(zip, job.entry, job.maxLineBytes);
    this.#checker = new RecordLineChecker(job.maxDepth);
    this.#scope = job.scope;
  }

  next(): FolderItem | null | undefined {
    const lines = this.#lines;
    if (!lines.next()) return lines.done ? null : undefined;
    const record = this.#checker.check(lines.buffer, lines.start, lines.end);
    if (typeof record === 'string') return record;
    let problems = record.content === 'hash-mismatch' ? problem.hashMismatch : record.content === 'too-deep' ? problem.tooDeep : 0;
    if (record.schema_key !== this.key) problems |= problem.wrongFolder;
    if (this.#scope !== null) {
      if (record.project_id !== this.#scope.projectId) problems |= problem.otherProject;
      if (!inDateRange(record.timestamp, this.#scope.range)) problems |= problem.outOfRange;
    }
    return { seq: record.seq, hash: record.hash, prev_hash: record.prev_hash, recorded_at: record.recorded_at, problems };
  }

  fill(): Promise<void> {
    return this.#lines.fill();
  }

  digest(): FolderDigest {
    return { sha256: this.#lines.reader.sha256(), size: this.#lines.reader.size };
  }

  close(): Promise<void> {
    return this.#lines.close();
  }
}
