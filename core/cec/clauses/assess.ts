import { type App, service } from '../../app.ts';
import { dayBounds } from '../../audit/store.ts';
import { schemaKeys } from '../../audit/types.ts';
import { outcomeRules, seriesSql } from './outcome-rules.ts';
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

type SeriesRow = { series: string; failed_ever: number; seq: number; record_id: string; timestamp: string; outcome: number | null };
type MonthRow = { schema_key: string; month: string; n: number; first_at: string; latest_at: string };

/**
 * One statement per key: the latest record of each series with its outcome. SQLite takes the bare columns from
 * the row holding max(); the series is grouped in SQL, so memory stays flat whatever the record count.
 */
const statements = (app: App) => {
  const perKey = Object.fromEntries(
    schemaKeys.map((key) => {
      const outcome = outcomeRules[key].sql;
      return [
        key,
        app.db.prepare<[string, string, string, string], SeriesRow>(
          `SELECT ${seriesSql(key)} AS series,
             coalesce(sum((${outcome}) = 0), 0) AS failed_ever,
             max(timestamp || printf('%020d', seq)) AS latest_key,
             seq, record_id, timestamp, (${outcome}) AS outcome
           FROM audit_records
           WHERE project_id = ? AND schema_key = ? AND timestamp >= ? AND timestamp < ?
           GROUP BY series`,
        ),
      ];
    }),
  ) as Record<EvidenceKey, ReturnType<typeof app.db.prepare<[string, string, string, string], SeriesRow>>>;
  const months = app.db.prepare<[string, string, string], MonthRow>(
    `SELECT schema_key, substr(timestamp, 1, 7) AS month, count(*) AS n, min(timestamp) AS first_at, max(timestamp) AS latest_at
     FROM audit_records WHERE project_id = ? AND timestamp >= ? AND timestamp < ?
     GROUP BY schema_key, month ORDER BY month`,
  );
  return { perKey, months };
};

const assessKey = (app: App, key: EvidenceKey, projectId: string, start: string, end: string, months: readonly MonthRow[]): KeyEvidence => {
  const own = months.filter((row) => row.schema_key === key);
  if (own.length === 0) return emptyKeyEvidence;
  let passing = 0;
  let failing = 0;
  let unknown = 0;
  let resolved = 0;
  let series = 0;
  const failingRecords: RecordRef[] = [];
  const unknownRecords: RecordRef[] = [];
  const st = service(app, 'clauses.assess', statements);
  for (const row of st.perKey[key].iterate(projectId, key, start, end)) {
    series += 1;
    const ref = { record_id: row.record_id, seq: row.seq, timestamp: row.timestamp };
    if (row.outcome === null) {
      unknown += 1;
      if (unknownRecords.length < sampleSize) unknownRecords.push(ref);
    } else if (row.outcome === 0) {
      failing += 1;
      if (failingRecords.length < sampleSize) failingRecords.push(ref);
    } else {
      passing += 1;
      if (row.failed_ever > 0) resolved += 1;
    }
  }
  const byTime = (a: RecordRef, b: RecordRef) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.seq - b.seq);
  return {
    count: own.reduce((sum, row) => sum + row.n, 0),
    first_at: own.map((row) => row.first_at).reduce((a, b) => (a < b ? a : b)),
    latest_at: own.map((row) => row.latest_at).reduce((a, b) => (a > b ? a : b)),
    months: Object.fromEntries(own.map((row) => [row.month, row.n])),
    series,
    passing,
    failing,
    unknown,
    resolved,
    failing_records: failingRecords.sort(byTime),
    unknown_records: unknownRecords.sort(byTime),
  };
};

/**
 * Aggregates a project's evidence in an inclusive UTC date range for the clause rule: per key the counts,
 * months covered and the outcome of each series' latest record. Reads only; records are never changed.
 */
export const assessEvidence = (app: App, q: { projectId: string; from?: string; to?: string }): EvidenceAssessment => {
  const { start, end } = dayBounds(q.from, q.to);
  // The chain head hash covers every record of the project, so it keys the cache exactly: any append (or a
  // dropped chain) changes it. Large projects are aggregated once per change, not once per screen load.
  const head = app.db
    .prepare<[string], { head_hash: string }>('SELECT head_hash FROM audit_chain_heads WHERE project_id = ?')
    .get(q.projectId);
  const cacheKey = `${q.projectId}\n${head?.head_hash ?? ''}\n${start}\n${end}`;
  const cache = service(app, 'clauses.assessCache', () => new Map<string, EvidenceAssessment>());
  const cached = cache.get(cacheKey);
  if (cached !== undefined) return cached;
  const months = service(app, 'clauses.assess', statements).months.all(q.projectId, start, end);
  const assessment = Object.fromEntries(schemaKeys.map((key) => [key, assessKey(app, key, q.projectId, start, end, months)])) as Record<
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
