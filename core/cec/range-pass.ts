import {
  canonicalHashInput,
  hashOfCanonicalBytes,
  hashOfCanonicalInput,
  needsNoEscape,
  plainHashInput,
  quoteField,
} from '../audit/chain.ts';
import { chainRows, type EvidenceRow, type SeqSpan, shapedPages } from '../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import type { Queryable } from '../store/database.ts';
import { type ChainLink, ChainLinker } from './chain-link.ts';
import { type EvidenceTally, type TalliedRow, talliedShape } from './clauses/evidence-tally.ts';
import type { DateRange } from './types.ts';

/**
 * Rows per query on one thread: fewer round trips than the store's default page (less CPU per row), ~2.5 MB a
 * page. 4000 took the same time at 1M records but peaked at 299-311 MB RSS (2000: 271-278 MB; the aim is 300 MB).
 */
export const rowsPerPage = 2000;

/** Where a range pass writes: a DeflatingFile on the building thread, a PlainFile on the segment worker. */
export type LineSink = { write(text: string): void; drained(): Promise<void> };
/** A records sink also writes a line spliced from its hash input (Utf8Chunks.writeSpliced). */
export type RecordSink = LineSink & {
  writeSpliced<T>(text: string, skipBytes: number, head: string, see: (bytes: Buffer) => T): T | null;
};
export type RangeSinks = { readonly records: Record<SchemaKey, RecordSink>; readonly witnesses: LineSink };

/** What one pass over a seq range found (its linker holds the chain's verdict). */
export type RangeTotals = {
  readonly records: number;
  readonly witnesses: number;
  readonly counts: Record<SchemaKey, number>;
  /** Seq of the first and last in-range record read (the range's start when it read none). */
  readonly firstSeq: number | null;
  readonly lastSeq: number;
};

/** Re-links a row whose content hashed to `computed`. */
const link = (row: EvidenceRow, computed: string, linker: ChainLinker): void => {
  if (computed !== row.hash) linker.fail(`chain: seq ${row.seq} hash does not match its content`);
  linker.push(row);
};

/** Re-hashes and re-links a witness row (only its hash goes into the bundle). */
const checkWitness = (row: EvidenceRow, linker: ChainLinker): void =>
  link(row, hashOfCanonicalInput(canonicalHashInput(row, row.payload)), linker);

/**
 * Re-hashes, re-links and writes one in-range row as its NDJSON line: the record's own RFC 8785 form (keys in
 * JCS order, no whitespace; the payload column already holds JCS text, copied verbatim). The text after the
 * `hash` member is exactly JCS(record without hash), so a verifier can hash the line's own bytes
 * (core/cec/canonical-line.ts); here it goes the other way. When every string field of the row needs no JSON
 * escape (`plain`, which the caller has established), the hash input (plainHashInput, prev_hash + that JCS) is
 * encoded once into the sink's buffer, hashed there, and its `prev_hash{` overwritten by `{"hash":…,`. Any other
 * row (a hostile one) takes the text path, with the same bytes out.
 */
const writeRecord = (row: EvidenceRow, sink: RecordSink, linker: ChainLinker, plain: boolean): void => {
  const skip = row.prev_hash.length + 1;
  const spliced = plain ? sink.writeSpliced(plainHashInput(row, row.payload), skip, `{"hash":"${row.hash}",`, hashOfCanonicalBytes) : null;
  if (spliced !== null) {
    link(row, spliced, linker);
    return;
  }
  const input = canonicalHashInput(row, row.payload);
  sink.write(`{"hash":${quoteField(row.hash)},${input.slice(skip)}\n`);
  link(row, hashOfCanonicalInput(input), linker);
};

/**
 * The state of one range pass and its per-row work. The rows of a page are written by one small synchronous
 * loop (writeRows), out of the async pass: V8 then optimizes that loop once per thread, where an async pass
 * holding it was compiled, deoptimized and compiled again on both threads of a split build, a fixed cost that was
 * a sixth of a 50k-record build's CPU (docs/decisions.md, "Bundle build, ninth pass").
 */
class RangeWriter {
  readonly linker: ChainLinker;
  readonly counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  witnesses = 0;
  firstSeq: number | null = null;
  lastSeq: number;
  /** The pass's project when it needs no JSON escape, else null: every row's project is checked against it. */
  readonly #plainProject: string | null;
  /** The hash of the record just written when it needs no escape: the next prev_hash equal to it needs no check. */
  #plainHash: string | null = null;

  constructor(
    readonly projectId: string,
    readonly sinks: RangeSinks,
    readonly after: ChainLink | null,
    readonly tally: EvidenceTally | null,
  ) {
    this.linker = new ChainLinker(after ?? undefined);
    this.lastSeq = after?.seq ?? 0;
    this.#plainProject = needsNoEscape(projectId) ? projectId : null;
  }

  /**
   * Writes `page` from row `start` on, up to a row that follows a gap of out-of-range records (those must be
   * read, async, and witnessed first: `witness`); returns that row's index, or the page's length when done.
   */
  writeRows(page: readonly TalliedRow[], start: number): number {
    const { sinks, linker, tally, counts } = this;
    for (let i = start; i < page.length; i++) {
      const tallied = page[i] as TalliedRow;
      const row = tallied.record;
      if (this.firstSeq === null && this.after === null) this.firstSeq = row.seq;
      else if (row.seq > this.lastSeq + 1) return i;
      this.firstSeq ??= row.seq;
      // Only the fields that can vary are checked: the schema key is one of six names (evidenceTuple) and the
      // project the pass's own; a prev_hash equal to the hash just written was checked as that hash.
      const plain =
        row.project_id === this.#plainProject &&
        needsNoEscape(row.hash) &&
        (row.prev_hash === this.#plainHash || needsNoEscape(row.prev_hash)) &&
        needsNoEscape(row.record_id) &&
        needsNoEscape(row.recorded_at) &&
        needsNoEscape(row.timestamp);
      writeRecord(row, sinks.records[row.schema_key], linker, plain);
      this.#plainHash = plain ? row.hash : null;
      tally?.add(tallied);
      counts[row.schema_key] += 1;
      this.lastSeq = row.seq;
    }
    return page.length;
  }

  /** Witnesses the out-of-range records before `row` (the one writeRows stopped at), so it then follows them. */
  async witness(db: Queryable, row: EvidenceRow): Promise<void> {
    for await (const gap of chainRows(db, this.projectId, this.lastSeq + 1, row.seq - 1)) {
      checkWitness(gap, this.linker);
      const comma = this.after !== null || this.witnesses > 0 ? ',' : '';
      this.sinks.witnesses.write(`${comma}{"seq":${gap.seq},"hash":"${gap.hash}","prev_hash":"${gap.prev_hash}"}`);
      this.witnesses += 1;
    }
    this.lastSeq = row.seq - 1;
  }
}

/**
 * One pass over the in-range records of a seq range, in seq order: each goes to its schema key's sink, the
 * out-of-range records in the gaps between them become hash-only witnesses, and every record is re-hashed and
 * re-linked on the way. `after` is the lower part's last in-range record when this range is the upper part of a
 * split segment: the linker then starts from it, the gap after it is witnessed here, and every witness starts
 * with a comma (the building thread drops the first when the lower part wrote none).
 */
export const passRange = async (
  db: Queryable,
  projectId: string,
  [from, to]: DateRange,
  span: SeqSpan,
  after: ChainLink | null,
  sinks: RangeSinks,
  hooks: {
    /** Sees every in-range row once, in seq order (the clause map). */
    readonly tally?: EvidenceTally | null | undefined;
    /** After each page, with the records read so far. */
    readonly onPage?: ((records: number) => void) | undefined;
    readonly pageRows?: number | undefined;
  } = {},
): Promise<RangeTotals & { readonly linker: ChainLinker }> => {
  const { onPage, pageRows = rowsPerPage } = hooks;
  const writer = new RangeWriter(projectId, sinks, after, hooks.tally ?? null);
  const all = [...Object.values(sinks.records), sinks.witnesses];
  let records = 0;
  // Pages in seq order from `db` (SQLite or PostgreSQL), each row with its tally columns; appends only add
  // higher seqs, so a build running beside them reads a consistent prefix of the chain.
  for await (const page of shapedPages(db, { projectId, from, to }, pageRows, span, talliedShape(db.dialect))) {
    for (let i = writer.writeRows(page, 0); i < page.length; i = writer.writeRows(page, i)) {
      await writer.witness(db, (page[i] as TalliedRow).record);
    }
    records += page.length;
    onPage?.(records);
    // Between pages, let timers and I/O run (an in-process build must not freeze the app), and let the
    // deflaters catch up so memory stays flat.
    await new Promise((resolve) => setImmediate(resolve));
    for (const sink of all) await sink.drained();
  }
  const { linker, counts, witnesses, firstSeq, lastSeq } = writer;
  return { records, witnesses, counts, firstSeq, lastSeq, linker };
};
