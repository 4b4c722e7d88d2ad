import type { EvidenceKey } from './types.ts';

/**
 * Version of the posture rule (outcome rules + cadence + combination). Written into clause_map.json and the
 * OSCAL export so a reader knows which rule produced a status; bump it whenever a rule below changes meaning.
 */
export const postureRuleVersion = 'posture/1';

/**
 * SQL reading one payload field (payload holds the JCS text of the record's payload), per back end. `value`:
 * a number or boolean as a number (true 1, false 0), NULL when absent or JSON null; `text`: a string field.
 */
export type PayloadFields = { readonly value: (path: string) => string; readonly text: (path: string) => string };

/** SQLite: json_extract already reads booleans as 1 / 0. */
export const sqliteFields: PayloadFields = {
  value: (path) => `json_extract(payload, '$.${path}')`,
  text: (path) => `json_extract(payload, '$.${path}')`,
};

/**
 * PostgreSQL: over `p`, the payload parsed once per row as jsonb (assess.ts). `#>>` gives text (SQL NULL for
 * JSON null), so numbers and booleans are read by their JSON type.
 */
export const postgresFields: PayloadFields = {
  value: (path) => {
    const at = `'{${path.replaceAll('.', ',')}}'`;
    return `(CASE jsonb_typeof(p #> ${at}) WHEN 'number' THEN (p #>> ${at})::double precision
      WHEN 'boolean' THEN CASE WHEN (p #> ${at}) = 'true'::jsonb THEN 1 ELSE 0 END END)`;
  },
  text: (path) => `(p #>> '{${path.replaceAll('.', ',')}}')`,
};

/** 1 when a condition holds, 0 when it does not, NULL when it cannot be told (a comparison with NULL): both back ends. */
const flag = (condition: string): string => `CASE WHEN ${condition} THEN 1 WHEN NOT (${condition}) THEN 0 END`;

/**
 * The same field reads over a parsed payload (a bundle build tallies the clause map in its pass over the rows,
 * core/cec/clauses/evidence-tally.ts): `value` a number, a boolean as 1 / 0, or null; `text` a string or null.
 * Each throws where SQL could read the field differently (another type, a long number), and the caller falls
 * back to the SQL aggregation.
 */
export type ParsedFields = { readonly value: (path: string) => number | null; readonly text: (path: string) => string | null };

/** `flag` for a comparison already made in JavaScript: null when either side was NULL. */
const flagOf = (a: number | null, b: number | null, holds: (a: number, b: number) => boolean): number | null =>
  a === null || b === null ? null : holds(a, b) ? 1 : 0;

export type OutcomeRule = {
  /**
   * The fields that name what a record is about (its series); only the latest record of each series counts,
   * so a later record supersedes an earlier one (a resolved drift, a re-run gate, a retrained model).
   */
  readonly series: readonly string[];
  /** SQL expression over one record: 1 passes, 0 fails, NULL when the record carries no outcome field. */
  readonly sql: (field: PayloadFields) => string;
  /** `sql` over a parsed payload, case for case (evidence-tally.test.ts holds the two to the same clause map). */
  readonly evaluate: (field: ParsedFields) => number | null;
  /** The rule in words (docs/clause-mapping.md and the reasons quote it). */
  readonly text: string;
};

/**
 * The documented outcome rule of each schema key, as one SQL expression each so that a clause map over a
 * million records aggregates inside SQLite (GROUP BY series) and never loads payloads into memory. Booleans
 * read back as 1 / 0.
 */
export const outcomeRules: Readonly<Record<EvidenceKey, OutcomeRule>> = {
  score_records: {
    series: ['model_id', 'metric', 'dataset', 'split'],
    sql: ({ value }) => `CASE
      WHEN ${value('passed')} IS NOT NULL THEN ${value('passed')}
      WHEN ${value('threshold')} IS NULL THEN NULL
      WHEN coalesce(${value('higher_is_better')}, 1) = 1 THEN ${flag(`${value('value')} >= ${value('threshold')}`)}
      ELSE ${flag(`${value('value')} <= ${value('threshold')}`)} END`,
    evaluate: ({ value }) => {
      const passed = value('passed');
      if (passed !== null) return passed;
      const threshold = value('threshold');
      if (threshold === null) return null;
      return (value('higher_is_better') ?? 1) === 1
        ? flagOf(value('value'), threshold, (a, b) => a >= b)
        : flagOf(value('value'), threshold, (a, b) => a <= b);
    },
    text: '`passed` when given; else `value` against `threshold` (>= when `higher_is_better` is true or absent, <= when false); no outcome without either',
  },
  bias_reports: {
    series: ['model_id', 'protected_attribute', 'metric'],
    sql: ({ value }) => `CASE WHEN ${value('passed')} IS NULL THEN NULL ELSE ${value('passed')} END`,
    evaluate: ({ value }) => value('passed'),
    text: '`passed`: the producer judged `disparity` within `threshold` for the metric',
  },
  prri_records: {
    series: ['model_id'],
    sql: ({ text }) => `CASE
      WHEN ${text('level')} IN ('low', 'medium') THEN 1
      WHEN ${text('level')} IN ('high', 'critical') THEN ${flag(`${text('accepted_by')} IS NOT NULL`)}
      ELSE NULL END`,
    evaluate: ({ text }) => {
      const level = text('level');
      if (level === 'low' || level === 'medium') return 1;
      if (level === 'high' || level === 'critical') return text('accepted_by') === null ? 0 : 1;
      return null;
    },
    text: '`level` low or medium passes; high or critical fails unless `accepted_by` records who accepted the residual risk',
  },
  drift_events: {
    series: ['model_id', 'feature'],
    sql: ({ value }) => `CASE WHEN ${value('detected')} IS NULL THEN NULL ELSE 1 - ${value('detected')} END`,
    evaluate: ({ value }) => {
      const detected = value('detected');
      return detected === null ? null : 1 - detected;
    },
    text: '`detected` false passes; a detected drift fails until a later record for the same model and feature is not detected (resolved)',
  },
  pii_detections: {
    series: ['source'],
    sql: ({ value, text }) => `CASE
      WHEN ${value('total_findings')} = 0 THEN 1
      WHEN ${value('redacted')} = 1 THEN 1
      WHEN ${text('labels.action')} = 'block' THEN 1
      WHEN ${value('redacted')} = 0 THEN 0
      ELSE NULL END`,
    evaluate: ({ value, text }) => {
      if (value('total_findings') === 0 || value('redacted') === 1 || text('labels.action') === 'block') return 1;
      return value('redacted') === 0 ? 0 : null;
    },
    text: 'no findings, or findings `redacted` (or blocked, `labels.action` = block) pass; findings with `redacted` false fail',
  },
  gate_evaluations: {
    series: ['gate', 'model_id'],
    sql: ({ text }) => `CASE ${text('decision')}
      WHEN 'pass' THEN 1 WHEN 'override' THEN 1 WHEN 'fail' THEN 0
      WHEN 'warn' THEN ${flag(`${text('approver')} IS NOT NULL`)}
      ELSE NULL END`,
    evaluate: ({ text }) => {
      const decision = text('decision');
      if (decision === 'pass' || decision === 'override') return 1;
      if (decision === 'fail') return 0;
      if (decision === 'warn') return text('approver') === null ? 0 : 1;
      return null;
    },
    text: '`decision` pass, or override (approver and reason required), passes; fail fails; warn passes only with an `approver`',
  },
};

/** SQL naming a record's series: the series fields joined by a unit separator (absent fields count as empty). */
export const seriesSql = (key: EvidenceKey, field: PayloadFields, separator: string): string =>
  outcomeRules[key].series.map((name) => `coalesce(${field.text(name)}, '')`).join(` || ${separator} || `);
