import { canonicalHashInput, hashOfCanonicalBytes, hashOfCanonicalInput, needsNoEscape, quoteField } from '../audit/chain.ts';
import { chainRows, type EvidenceRow, evidencePages, type SeqSpan } from '../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import type { Queryable } from '../store/database.ts';
import { type ChainLink, ChainLinker } from './chain-link.ts';
import type { EvidenceTally } from './clauses/evidence-tally.ts';
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
 * (core/cec/canonical-line.ts); here it goes the other way: the hash input (canonicalHashInput, prev_hash + that
 * JCS) is encoded once into the sink's buffer, hashed there, and its `prev_hash{` overwritten by `{"hash":…,`.
 * A hash or prev_hash that JSON must escape (a hostile row) takes the text path, with the same bytes out.
 */
const writeRecord = (row: EvidenceRow, sink: RecordSink, linker: ChainLinker): void => {
  const input = canonicalHashInput(row, row.payload);
  const skip = row.prev_hash.length + 1;
  let computed =
    needsNoEscape(row.hash) && needsNoEscape(row.prev_hash)
      ? sink.writeSpliced(input, skip, `{"hash":"${row.hash}",`, hashOfCanonicalBytes)
      : null;
  if (computed === null) {
    sink.write(`{"hash":${quoteField(row.hash)},${input.slice(skip)}\n`);
    computed = hashOfCanonicalInput(input);
  }
  link(row, computed, linker);
};

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
  const { tally, onPage, pageRows = rowsPerPage } = hooks;
  const linker = new ChainLinker(after ?? undefined);
  const counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  const all = [...Object.values(sinks.records), sinks.witnesses];
  let records = 0;
  let witnesses = 0;
  let firstSeq: number | null = null;
  let lastSeq = after?.seq ?? 0;

  const witnessGap = async (fromSeq: number, toSeq: number): Promise<void> => {
    for await (const row of chainRows(db, projectId, fromSeq, toSeq)) {
      checkWitness(row, linker);
      const comma = after !== null || witnesses > 0 ? ',' : '';
      sinks.witnesses.write(`${comma}{"seq":${row.seq},"hash":"${row.hash}","prev_hash":"${row.prev_hash}"}`);
      witnesses += 1;
    }
  };

  // Pages in seq order from `db` (SQLite or PostgreSQL); appends only add higher seqs, so a build
  // running beside them reads a consistent prefix of the chain.
  for await (const page of evidencePages(db, { projectId, from, to }, pageRows, span)) {
    for (const row of page) {
      if (firstSeq === null && after === null) firstSeq = row.seq;
      else if (row.seq > lastSeq + 1) await witnessGap(lastSeq + 1, row.seq - 1);
      firstSeq ??= row.seq;
      writeRecord(row, sinks.records[row.schema_key], linker);
      tally?.add(row);
      counts[row.schema_key] += 1;
      lastSeq = row.seq;
    }
    records += page.length;
    onPage?.(records);
    // Between pages, let timers and I/O run (an in-process build must not freeze the app), and let the
    // deflaters catch up so memory stays flat.
    await new Promise((resolve) => setImmediate(resolve));
    for (const sink of all) await sink.drained();
  }
  return { records, witnesses, counts, firstSeq, lastSeq, linker };
};
