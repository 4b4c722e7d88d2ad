import { z } from 'zod';
import { type App, service } from '../../app.ts';
import { dayBounds, timeFilter } from '../../audit/store.ts';
import { schemaKeys } from '../../audit/types.ts';
import type { Dialect } from '../../store/database.ts';
import { outcomeRules, postgresFields, seriesSql, sqliteFields } from './outcome-rules.ts';
import type { EvidenceKey, RecordRef } from './types.ts';

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

/** Assessments kept per app (oldest dropped first). */
const cacheEntries = 32;

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

const seriesRow = z.object({
  series: z.string(),
  failed_ever: z.number(),
  seq: z.number(),
  record_id: z.string(),
  timestamp: z.string(),
  outcome: z.number().nullable(),
});
const monthRow = z.object({ schema_key: z.string(), month: z.string(), n: z.number(), first_at: z.string(), latest_at: z.string() });
type MonthRow = z.infer<typeof monthRow>;
const headRow = z.object({ head_hash: z.string() });

/**
 * One statement per key: the latest record of each series with its outcome, grouped in SQL so memory stays flat
 * whatever the record count (only one row per series comes back). SQLite takes the bare columns from the row
 * holding max(); PostgreSQL ranks each series' records with window functions and parses each payload once.
 */
const seriesStatement = (dialect: Dialect, key: EvidenceKey, time: string): string => {
  if (dialect === 'sqlite') {
    return `SELECT ${seriesSql(key, sqliteFields, 'char(31)')} AS series,
         coalesce(sum((${outcomeRules[key].sql(sqliteFields)}) = 0), 0) AS failed_ever,
         max(timestamp || printf('%020d', seq)) AS latest_key,
         seq, record_id, timestamp, (${outcomeRules[key].sql(sqliteFields)}) AS outcome
       FROM audit_records
       WHERE project_id = ? AND schema_key = ? AND ${time}
       GROUP BY series`;
  }
  return `SELECT series, failed_ever, seq, record_id, timestamp, outcome FROM (
       SELECT series, seq, record_id, timestamp, outcome,
         sum(CASE WHEN outcome = 0 THEN 1 ELSE 0 END) OVER (PARTITION BY series) AS failed_ever,
         row_number() OVER (PARTITION BY series ORDER BY timestamp DESC, seq DESC) AS latest
       FROM (
         SELECT ${seriesSql(key, postgresFields, 'chr(31)')} AS series, (${outcomeRules[key].sql(postgresFields)}) AS outcome,
           seq, record_id, timestamp
         FROM audit_records, LATERAL (SELECT payload::jsonb AS p) AS parsed
         WHERE project_id = ? AND schema_key = ? AND ${time}
       ) AS records
     ) AS ranked WHERE latest = 1`;
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

const assessKey = async (
  app: App,
  key: EvidenceKey,
  projectId: string,
  time: { sql: string; params: string[] },
  months: readonly MonthRow[],
): Promise<KeyEvidence> => {
  const own = months.filter((row) => row.schema_key === key);
  if (own.length === 0) return emptyKeyEvidence;
  const rows = await app.database.all(seriesRow, seriesStatement(app.database.dialect, key, time.sql), [projectId, key, ...time.params]);
  return keyEvidenceOf(
    own,
    rows.map((row) => ({
      ref: { record_id: row.record_id, seq: row.seq, timestamp: row.timestamp },
      outcome: row.outcome,
      failedEver: row.failed_ever,
    })),
  );
};

/**
 * Aggregates a project's evidence in an inclusive UTC date range for the clause rule: per key the counts,
 * months covered and the outcome of each series' latest record. Reads only; records are never changed.
 */
export const assessEvidence = async (app: App, q: { projectId: string; from?: string; to?: string }): Promise<EvidenceAssessment> => {
  const { start, end } = dayBounds(q.from, q.to);
  const time = timeFilter(q.from, q.to);
  // The chain head hash covers every record of the project, so it keys the cache exactly: any append (or a
  // dropped chain), on any instance, changes it. Large projects are aggregated once per change, not per screen load.
  const head = await app.database.one(headRow, 'SELECT head_hash FROM audit_chain_heads WHERE project_id = ?', [q.projectId]);
  const cacheKey = `${q.projectId}\n${head?.head_hash ?? ''}\n${start}\n${end}`;
  const cache = service(app, 'clauses.assessCache', () => new Map<string, EvidenceAssessment>());
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  const months = await app.database.all(
    monthRow,
    `SELECT schema_key, substr(timestamp, 1, 7) AS month, count(*) AS n, min(timestamp) AS first_at, max(timestamp) AS latest_at
     FROM audit_records WHERE project_id = ? AND ${time.sql}
     GROUP BY schema_key, substr(timestamp, 1, 7) ORDER BY month`,
    [q.projectId, ...time.params],
  );
  const perKey = await Promise.all(schemaKeys.map((key) => assessKey(app, key, q.projectId, time, months)));
  const assessment = Object.fromEntries(schemaKeys.map((key, index) => [key, perKey[index] ?? emptyKeyEvidence])) as Record<
    EvidenceKey,
    KeyEvidence
  >;
  if (cache.size >= cacheEntries) cache.delete(cache.keys().next().value ?? '');
  cache.set(cacheKey, assessment);
  return assessment;
};

/** Record counts per key of an assessment (the spec's record_counts shape). */
export const assessmentCounts = (assessment: EvidenceAssessment): Record<EvidenceKey, number> =>
  Object.fromEntries(schemaKeys.map((key) => [key, assessment[key].count])) as Record<EvidenceKey, number>;
