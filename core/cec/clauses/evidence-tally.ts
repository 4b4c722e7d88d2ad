import { type EvidenceRow, evidenceTuple, recordColumns, type RowShape } from '../../audit/evidence-rows.ts';
import { type SchemaKey, schemaKeys } from '../../audit/types.ts';
import type { Dialect } from '../../store/database.ts';
import { type EvidenceAssessment, emptyKeyEvidence, type KeyEvidence, keyEvidenceOf, type MonthTally } from './key-evidence.ts';
import { tallyColumnsSql } from './outcome-rules.ts';
import type { RecordRef } from './types.ts';

/**
 * Distinct series kept in memory before the tally gives up (the SQL aggregation, flat in memory, takes over).
 * Real projects have a few per model; at ~200 bytes a series this bounds the tally to ~20 MB.
 */
export const maxTalliedSeries = 100_000;

/** Thrown where SQL could order or cut a value differently; the whole tally then defers to SQL. */
class Unsure extends Error {}

/** Text SQLite hands back unchanged and orders as JavaScript does (no NUL, nothing outside the BMP, no lone halves). */
const agreedText = (text: string): boolean => !/[\0\ud800-\udfff]/.test(text);

/**
 * An evidence row as a build's pass reads it for the tally: the stored row with its series and outcome, computed
 * in SQL (beside the row, not merged into it: every stored row keeps one object layout).
 */
export type TalliedRow = { readonly record: EvidenceRow; readonly series: string; readonly outcome: number | null };

/**
 * The page shape of a tallying pass: the stored row and the two columns of tallyColumnsSql. A series that is not
 * text or an outcome that is not a number (neither back end gives one) is refused like a malformed stored row.
 */
export const talliedShape = (dialect: Dialect): RowShape<TalliedRow> => {
  const { columns, from } = tallyColumnsSql(dialect);
  return {
    columns: `${recordColumns}, ${columns}`,
    from,
    row: (values) => {
      const series = values[9];
      const outcome = values[10];
      if (typeof series !== 'string' || (outcome !== null && typeof outcome !== 'number')) {
        throw new TypeError('a tallied row has no series text or a non-numeric outcome');
      }
      return { record: evidenceTuple(values), series, outcome };
    },
    seqOf: (row) => row.record.seq,
  };
};

/** SQLite's `timestamp || printf('%020d', seq)`: the key whose max() picks a series' latest record. */
const latestKey = (timestamp: string, seq: number): string => timestamp + String(seq).padStart(20, '0');

/**
 * Whether (timestamp, seq) sorts after `latest` by that key, without building it: the timestamps decide unless
 * one is a prefix of the other (never for the store's fixed-width times; then the keys are built and compared).
 */
const isLater = (timestamp: string, seq: number, latest: RecordRef): boolean => {
  if (timestamp === latest.timestamp) return seq > latest.seq;
  if (timestamp.startsWith(latest.timestamp) || latest.timestamp.startsWith(timestamp)) {
    return latestKey(timestamp, seq) > latestKey(latest.timestamp, latest.seq);
  }
  return timestamp > latest.timestamp;
};

/** `ref` is this tally's own object, updated in place as later records come (no object per row). */
type Latest = { ref: { record_id: string; seq: number; timestamp: string }; outcome: number | null; failedEver: number };
type Month = { n: number; first: string; latest: string };
type KeyTally = { readonly months: Map<string, Month>; readonly series: Map<string, Latest> };
/** An EvidenceTally as plain data (structured-clonable). */
export type TallyState = { readonly unsure: boolean; readonly keys: ReadonlyMap<SchemaKey, KeyTally> };

/**
 * The clause map's evidence assessment (assess.ts, `assessEvidence`) tallied from the rows a bundle build reads
 * anyway, instead of a second reader of every payload: per key the months, first and latest times, and per
 * series the latest record's outcome. Each row's series and outcome come from the aggregation's own SQL
 * (talliedShape), and the tally mirrors its statements case for case (the series ordered as GROUP BY orders
 * them, the same ten sampled records); where SQL could order or cut a text differently (a NUL or a character
 * outside the BMP in a series, a time that is not printable ASCII) or the series outgrow `maxSeries`, `result()`
 * is null and the caller aggregates in SQL. Rows must come in seq order.
 */
export class EvidenceTally {
  readonly #keys = new Map<SchemaKey, KeyTally>(schemaKeys.map((key) => [key, { months: new Map(), series: new Map() }]));
  #series = 0;
  #unsure = false;

  constructor(readonly maxSeries = maxTalliedSeries) {}

  add(row: TalliedRow): void {
    if (this.#unsure) return;
    try {
      this.#add(row);
    } catch (error) {
      if (!(error instanceof Unsure)) throw error;
      this.#giveUp();
    }
  }

  #giveUp(): void {
    this.#unsure = true;
    this.#keys.clear();
  }

  /** The tally as plain data (maps and objects: a worker's reply). */
  state(): TallyState {
    return { unsure: this.#unsure, keys: this.#keys };
  }

  /**
   * Adds the tally of the records after this one's (the upper part of a split build pass): months add, a series
   * keeps the later of the two latest records and the sum of its failures, as if every row had come through `add`.
   */
  merge(later: TallyState): void {
    if (this.#unsure) return;
    if (later.unsure) {
      this.#giveUp();
      return;
    }
    for (const [key, theirs] of later.keys) {
      const mine = this.#keys.get(key) as KeyTally;
      for (const [name, month] of theirs.months) {
        const known = mine.months.get(name);
        if (known === undefined) mine.months.set(name, month);
        else {
          known.n += month.n;
          if (month.first < known.first) known.first = month.first;
          if (month.latest > known.latest) known.latest = month.latest;
        }
      }
      for (const [name, series] of theirs.series) {
        const known = mine.series.get(name);
        if (known === undefined) {
          if (++this.#series > this.maxSeries) {
            this.#giveUp();
            return;
          }
          mine.series.set(name, series);
          continue;
        }
        known.failedEver += series.failedEver;
        if (isLater(series.ref.timestamp, series.ref.seq, known.ref)) {
          known.ref = series.ref;
          known.outcome = series.outcome;
        }
      }
    }
  }

  #add({ record: row, series, outcome }: TalliedRow): void {
    const { timestamp, seq, schema_key: key } = row;
    if (!/^[\x20-\x7e]*$/.test(timestamp) || !Number.isSafeInteger(seq) || seq < 0 || !agreedText(series)) throw new Unsure();
    const tally = this.#keys.get(key) as KeyTally;

    const monthName = timestamp.slice(0, 7);
    const month = tally.months.get(monthName);
    if (month === undefined) tally.months.set(monthName, { n: 1, first: timestamp, latest: timestamp });
    else {
      month.n += 1;
      // Stored unconditionally: a store first reached after V8 optimized this method would throw that code away.
      month.first = timestamp < month.first ? timestamp : month.first;
      month.latest = timestamp > month.latest ? timestamp : month.latest;
    }

    const latest = tally.series.get(series);
    if (latest === undefined) {
      if (++this.#series > this.maxSeries) throw new Unsure();
      tally.series.set(series, { ref: { record_id: row.record_id, seq, timestamp }, outcome, failedEver: outcome === 0 ? 1 : 0 });
      return;
    }
    if (outcome === 0) latest.failedEver += 1;
    if (isLater(timestamp, seq, latest.ref)) {
      latest.ref.record_id = row.record_id;
      latest.ref.seq = seq;
      latest.ref.timestamp = timestamp;
      latest.outcome = outcome;
    }
  }

  /** The assessment, or null when SQL must aggregate instead. */
  result(): EvidenceAssessment | null {
    if (this.#unsure) return null;
    return Object.fromEntries([...this.#keys].map(([key, tally]) => [key, keyEvidence(tally)])) as Record<SchemaKey, KeyEvidence>;
  }
}

/** assess.ts's reduction over the tallied rows: series in GROUP BY order, months in ORDER BY month order. */
const keyEvidence = ({ months, series }: KeyTally): KeyEvidence => {
  if (months.size === 0) return emptyKeyEvidence;
  const ordered: MonthTally[] = [...months]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([month, { n, first, latest }]) => ({ month, n, first_at: first, latest_at: latest }));
  return keyEvidenceOf(
    ordered,
    [...series.keys()].sort().map((name) => series.get(name) as Latest),
  );
};
