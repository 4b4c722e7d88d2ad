import type { EvidenceKey, RecordRef } from './types.ts';

/*
 * What an assessment says about one schema key, and how it is reduced from months and series: shared by the SQL
 * aggregation (assess.ts) and the build pass's tally (evidence-tally.ts), which the bundle build's segment worker
 * loads without assess.ts's app and zod imports.
 */

/** What the store holds for one schema key in a project and date range, aggregated (no payloads). */
export type KeyEvidence = {
  readonly count: number;
  readonly first_at: string | null;
  readonly latest_at: string | null;
  /** Records per UTC month (`YYYY-MM`) of the event time. */
  readonly months: Readonly<Record<string, number>>;
  /** Distinct series (what the records are about, see outcomeRules) and the outcome of each one's latest record. */
  readonly series: number;
  readonly passing: number;
  readonly failing: number;
  /** Series whose latest record carries no outcome field. */
  readonly unknown: number;
  /** Series whose latest record passes after an earlier record of the same series failed (e.g. resolved drift). */
  readonly resolved: number;
  /** Latest records that fail / carry no outcome, at most `sampleSize` each, oldest first. */
  readonly failing_records: readonly RecordRef[];
  readonly unknown_records: readonly RecordRef[];
};
export type EvidenceAssessment = Readonly<Record<EvidenceKey, KeyEvidence>>;

/** How many failing (or outcome-less) records a reason names; the counts are always complete. */
export const sampleSize = 10;

export const emptyKeyEvidence: KeyEvidence = {
  count: 0,
  first_at: null,
  latest_at: null,
  months: {},
  series: 0,
  passing: 0,
  failing: 0,
  unknown: 0,
  resolved: 0,
  failing_records: [],
  unknown_records: [],
};

/** One month of one key: how many records and the first and latest event times in it. */
export type MonthTally = { readonly month: string; readonly n: number; readonly first_at: string; readonly latest_at: string };
/** One series: its latest record, that record's outcome (1 / 0 / null as the rule gives it) and how often it failed. */
export type SeriesLatest = { readonly ref: RecordRef; readonly outcome: number | null; readonly failedEver: number };

const byTime = (a: RecordRef, b: RecordRef) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.seq - b.seq);

/**
 * A key's evidence from its months (in month order, at least one) and its series (in GROUP BY order, which picks
 * the sampled records): shared by the SQL aggregation here and the build pass's tally (evidence-tally.ts).
 */
export const keyEvidenceOf = (months: readonly MonthTally[], series: Iterable<SeriesLatest>): KeyEvidence => {
  const counts = { series: 0, passing: 0, failing: 0, unknown: 0, resolved: 0 };
  const failingRecords: RecordRef[] = [];
  const unknownRecords: RecordRef[] = [];
  for (const latest of series) {
    counts.series += 1;
    if (latest.outcome === null) {
      counts.unknown += 1;
      if (unknownRecords.length < sampleSize) unknownRecords.push(latest.ref);
    } else if (latest.outcome === 0) {
      counts.failing += 1;
      if (failingRecords.length < sampleSize) failingRecords.push(latest.ref);
    } else {
      counts.passing += 1;
      if (latest.failedEver > 0) counts.resolved += 1;
    }
  }
  return {
    count: months.reduce((sum, row) => sum + row.n, 0),
    first_at: months.map((row) => row.first_at).reduce((a, b) => (a < b ? a : b)),
    latest_at: months.map((row) => row.latest_at).reduce((a, b) => (a > b ? a : b)),
    months: Object.fromEntries(months.map((row) => [row.month, row.n])),
    ...counts,
    failing_records: failingRecords.sort(byTime),
    unknown_records: unknownRecords.sort(byTime),
  };
};
