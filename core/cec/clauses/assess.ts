import { z } from 'zod';
import { type App, service } from '../../app.ts';
import { dayBounds, timeFilter } from '../../audit/evidence-rows.ts';
import { schemaKeys } from '../../audit/types.ts';
import type { Dialect } from '../../store/database.ts';
import { outcomeSql, payloadRowsSql, seriesSql } from './outcome-rules.ts';
import { type EvidenceAssessment, emptyKeyEvidence, type KeyEvidence, keyEvidenceOf } from './key-evidence.ts';
import type { EvidenceKey } from './types.ts';

/** Assessments kept per app (oldest dropped first). */
const cacheEntries = 32;

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
    return `SELECT ${seriesSql(key, dialect)} AS series,
         coalesce(sum((${outcomeSql(key, dialect)}) = 0), 0) AS failed_ever,
         max(timestamp || printf('%020d', seq)) AS latest_key,
         seq, record_id, timestamp, (${outcomeSql(key, dialect)}) AS outcome
       FROM audit_records
       WHERE project_id = ? AND schema_key = ? AND ${time}
       GROUP BY series`;
  }
  return `SELECT series, failed_ever, seq, record_id, timestamp, outcome FROM (
       SELECT series, seq, record_id, timestamp, outcome,
         sum(CASE WHEN outcome = 0 THEN 1 ELSE 0 END) OVER (PARTITION BY series) AS failed_ever,
         row_number() OVER (PARTITION BY series ORDER BY timestamp DESC, seq DESC) AS latest
       FROM (
         SELECT ${seriesSql(key, dialect)} AS series, (${outcomeSql(key, dialect)}) AS outcome,
           seq, record_id, timestamp
         FROM ${payloadRowsSql(dialect)}
         WHERE project_id = ? AND schema_key = ? AND ${time}
       ) AS records
     ) AS ranked WHERE latest = 1`;
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
