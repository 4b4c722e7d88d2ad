import type { Dialect } from '../../store/database.ts';
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
const sqliteFields: PayloadFields = {
  value: (path) => `json_extract(payload, '$.${path}')`,
  text: (path) => `json_extract(payload, '$.${path}')`,
};

/**
 * PostgreSQL: over `p`, the payload parsed once per row as jsonb (assess.ts). `#>>` gives text (SQL NULL for
 * JSON null), so numbers and booleans are read by their JSON type.
 */
const postgresFields: PayloadFields = {
  value: (path) => {
    const at = `'{${path.replaceAll('.', ',')}}'`;
    return `(CASE jsonb_typeof(p #> ${at}) WHEN 'number' THEN (p #>> ${at})::double precision
      WHEN 'boolean' THEN CASE WHEN (p #> ${at}) = 'true'::jsonb THEN 1 ELSE 0 END END)`;
  },
  text: (path) => `(p #>> '{${path.replaceAll('.', ',')}}')`,
};

/** 1 when a condition holds, 0 when it does not, NULL when it cannot be told (a comparison with NULL): both back ends. */
const flag = (condition: string): string => `CASE WHEN ${condition} THEN 1 WHEN NOT (${condition}) THEN 0 END`;

export type OutcomeRule = {
  /**
   * The fields that name what a record is about (its series); only the latest record of each series counts,
   * so a later record supersedes an earlier one (a resolved drift, a re-run gate, a retrained model).
   */
  readonly series: readonly string[];
  /** SQL expression over one record: 1 passes, 0 fails, NULL when the record carries no outcome field. */
  readonly sql: (field: PayloadFields) => string;
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
    text: '`passed` when given; else `value` against `threshold` (>= when `higher_is_better` is true or absent, <= when false); no outcome without either',
  },
  bias_reports: {
    series: ['model_id', 'protected_attribute', 'metric'],
    sql: ({ value }) => `CASE WHEN ${value('passed')} IS NULL THEN NULL ELSE ${value('passed')} END`,
    text: '`passed`: the producer judged `disparity` within `threshold` for the metric',
  },
  prri_records: {
    series: ['model_id'],
    sql: ({ text }) => `CASE
      WHEN ${text('level')} IN ('low', 'medium') THEN 1
      WHEN ${text('level')} IN ('high', 'critical') THEN ${flag(`${text('accepted_by')} IS NOT NULL`)}
      ELSE NULL END`,
    text: '`level` low or medium passes; high or critical fails unless `accepted_by` records who accepted the residual risk',
  },
  drift_events: {
    series: ['model_id', 'feature'],
    sql: ({ value }) => `CASE WHEN ${value('detected')} IS NULL THEN NULL ELSE 1 - ${value('detected')} END`,
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
    text: 'no findings, or findings `redacted` (or blocked, `labels.action` = block) pass; findings with `redacted` false fail',
  },
  gate_evaluations: {
    series: ['gate', 'model_id'],
    sql: ({ text }) => `CASE ${text('decision')}
      WHEN 'pass' THEN 1 WHEN 'override' THEN 1 WHEN 'fail' THEN 0
      WHEN 'warn' THEN ${flag(`${text('approver')} IS NOT NULL`)}
      ELSE NULL END`,
    text: '`decision` pass, or override (approver and reason required), passes; fail fails; warn passes only with an `approver`',
  },
};

/**
 * SQL naming a record's series on `dialect`: the series fields joined by a unit separator (absent fields count
 * as empty).
 */
export const seriesSql = (key: EvidenceKey, dialect: Dialect): string => {
  const field = dialect === 'sqlite' ? sqliteFields : postgresFields;
  const separator = dialect === 'sqlite' ? 'char(31)' : 'chr(31)';
  return outcomeRules[key].series.map((name) => `coalesce(${field.text(name)}, '')`).join(` || ${separator} || `);
};

/** SQL of a record's outcome on `dialect` (its key's rule): 1 passes, 0 fails, NULL none. */
export const outcomeSql = (key: EvidenceKey, dialect: Dialect): string =>
  outcomeRules[key].sql(dialect === 'sqlite' ? sqliteFields : postgresFields);

/** The rows the clause-map SQL reads: on PostgreSQL each payload parsed once per row, as `p` (postgresFields). */
export const payloadRowsSql = (dialect: Dialect): string =>
  dialect === 'sqlite' ? 'audit_records' : 'audit_records, LATERAL (SELECT payload::jsonb AS p) AS parsed';

/** Every rule's SQL over the row's own schema key, for a query that reads several keys (a bundle build's pass). */
const perKey = (sql: (key: EvidenceKey) => string): string =>
  `CASE schema_key ${(Object.keys(outcomeRules) as EvidenceKey[]).map((key) => `WHEN '${key}' THEN ${sql(key)}`).join(' ')} END`;

/**
 * The columns a bundle build's pass adds to each evidence row it reads for the clause-map tally: the record's
 * series and outcome, by the very SQL expressions the clause map's aggregation groups by (assess.ts), so the
 * tally reads every payload as that aggregation would, with no JSON parsed in JavaScript (docs/decisions.md,
 * "Bundle build, ninth pass"). `from` replaces `FROM audit_records` (PostgreSQL parses each payload once there).
 */
export const tallyColumnsSql = (dialect: Dialect): { readonly columns: string; readonly from: string } => ({
  columns: `${perKey((key) => seriesSql(key, dialect))} AS series, ${perKey((key) => outcomeSql(key, dialect))} AS outcome`,
  from: payloadRowsSql(dialect),
});
