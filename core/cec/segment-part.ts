/**
 * What the building thread and the segment worker of a split pass (segment-split.ts, segment-range-worker.ts)
 * agree on. Its own module, with type-only imports, so the worker's bundle loads none of the app.
 */
import { join } from 'node:path';
import type { SchemaKey } from '../audit/types.ts';
import type { ChainLink, LinkerState } from './chain-link.ts';
import type { TallyState } from './clauses/evidence-tally.ts';
import type { PartDigest } from './running-crc.ts';
import type { RangeTotals } from './range-pass.ts';
import type { DateRange } from './types.ts';

/**
 * Rows per query on each thread of a split pass: two pages are in memory at once, and the worker's isolate
 * besides. At 1M records (load 7-11, interleaved pairs) peak RSS was 258-304 MB with 2000 rows, 249-291 MB with
 * 1000 and 240-248 MB with 500, with no CPU difference resolvable (more queries, fewer rows alive per collection).
 */
export const splitPageRows = 500;

export type SegmentJob = {
  /** The app's SQLite file, read through a read-only connection; null: PostgreSQL, through openApp. */
  readonly sqliteFile: string | null;
  readonly dataDir: string;
  readonly env: Record<string, string>;
  readonly projectId: string;
  readonly range: DateRange;
  /** The lower half's last in-range seq: the worker reads the in-range records after it. */
  readonly after: number;
  readonly workDir: string;
  readonly tally: boolean;
};
export type UpperPart = RangeTotals & {
  /** The stored link at `after`, as the worker read it: the lower half must end on exactly this link. */
  readonly seed: ChainLink;
  readonly linker: LinkerState;
  readonly tally: TallyState | null;
  /** Each records part's CRC-32 and length, as the worker wrote it. */
  readonly digests: Record<SchemaKey, PartDigest>;
};
export type SegmentReply = { readonly ok: true; readonly part: UpperPart } | { readonly ok: false; readonly message: string };
/** The worker's part file `written` now holds `size` bytes (posted after each buffer it wrote, before the reply). */
export type PartWritten = { readonly written: PartName; readonly size: number };
/** What the worker posts: any number of PartWritten, then one SegmentReply. */
export type SegmentMessage = PartWritten | SegmentReply;
export type PartName = SchemaKey | 'witnesses';

/** The worker's file for an entry's upper part (a schema key's records, or `witnesses`). */
export const upperPartPath = (workDir: string, name: PartName): string => join(workDir, `upper-${name}.part`);
