import type { EvidenceKey } from './types.ts';

/**
 * Version of the posture rule (outcome rules + cadence + combination). Written into clause_map.json and the
 * OSCAL export so a reader knows which rule produced a status; bump it whenever a rule below changes meaning.
 */
export const postureRuleVersion = 'posture/1';

/** SQL for one payload field (payload holds the JCS text of the record's payload). */
const field = (path: string): string => `json_extract(payload, '$.${path}')`;

export type OutcomeRule = {
  /**
   * The fields that name what a record is about (its series); only the latest record of each series counts,
   * so a later record supersedes an earlier one (a resolved drift, a re-run gate, a retrained model).
   */
  readonly series: readonly string[];
  /** SQL expression over one record: 1 passes, 0 fails, NULL when the record carries no outcome field. */
  readonly sql: string;
  /** The rule in words (docs/clause-mapping.md and the reasons quote it). */
  readonly text: string;
};

/**
 * The documented outcome rule of each schema key, as one SQL expression each so that a clause map over a
 * million records aggregates inside SQLite (GROUP BY series) and never loads payloads into memory. Booleans
 * read back from json_extract as 1 / 0.
 */
export const outcomeRules: Readonly<Record<EvidenceKey, OutcomeRule>> = {
  score_records: {
    series: ['model_id', 'metric', 'dataset', 'split'],
    sql: `CASE
      WHEN ${field('passed')} IS NOT NULL THEN ${field('passed')}
      WHEN ${field('threshold')} IS NULL THEN NULL
      WHEN coalesce(${field('higher_is_better')}, 1) = 1 THEN ${field('value')} >= ${field('threshold')}
      ELSE ${field('value')} <= ${field('threshold')} END`,
    text: '`passed` when given; else `value` against `threshold` (>= when `higher_is_better` is true or absent, <= when false); no outcome without either',
  },
  bias_reports: {
    series: ['model_id', 'protected_attribute', 'metric'],
    sql: `CASE WHEN ${field('passed')} IS NULL THEN NULL ELSE ${field('passed')} END`,
    text: '`passed`: the producer judged `disparity` within `threshold` for the metric',
  },
  prri_records: {
    series: ['model_id'],
    sql: `CASE
      WHEN ${field('level')} IN ('low', 'medium') THEN 1
      WHEN ${field('level')} IN ('high', 'critical') THEN (${field('accepted_by')} IS NOT NULL)
      ELSE NULL END`,
    text: '`level` low or medium passes; high or critical fails unless `accepted_by` records who accepted the residual risk',
  },
  drift_events: {
    series: ['model_id', 'feature'],
    sql: `CASE WHEN ${field('detected')} IS NULL THEN NULL ELSE 1 - ${field('detected')} END`,
    text: '`detected` false passes; a detected drift fails until a later record for the same model and feature is not detected (resolved)',
  },
  pii_detections: {
    series: ['source'],
    sql: `CASE
      WHEN ${field('total_findings')} = 0 THEN 1
      WHEN ${field('redacted')} = 1 THEN 1
      WHEN ${field('labels.action')} = 'block' THEN 1
      WHEN ${field('redacted')} = 0 THEN 0
      ELSE NULL END`,
    text: 'no findings, or findings `redacted` (or blocked, `labels.action` = block) pass; findings with `redacted` false fail',
  },
  gate_evaluations: {
    series: ['gate', 'model_id'],
    sql: `CASE ${field('decision')}
      WHEN 'pass' THEN 1 WHEN 'override' THEN 1 WHEN 'fail' THEN 0
      WHEN 'warn' THEN (${field('approver')} IS NOT NULL)
      ELSE NULL END`,
    text: '`decision` pass, or override (approver and reason required), passes; fail fails; warn passes only with an `approver`',
  },
};

/** SQL naming a record's series: the series fields joined by a unit separator (absent fields count as empty). */
export const seriesSql = (key: EvidenceKey): string =>
  outcomeRules[key].series.map((name) => `coalesce(${field(name)}, '')`).join(` || char(31) || `);
