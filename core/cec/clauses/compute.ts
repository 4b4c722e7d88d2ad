import { schemaKeys } from '../../audit/types.ts';
import type { EvidenceAssessment, KeyEvidence } from './key-evidence.ts';
import { type AssessmentWindow, type Cadence, checkCadence } from './cadence.ts';
import { frameworkClauses } from './catalog.ts';
import { outcomeRules } from './outcome-rules.ts';
import type {
  ClauseMapEntry,
  ClauseReason,
  ClauseSatisfaction,
  EvidenceKey,
  FrameworkId,
  KeyMapping,
  ReasonCode,
  RecordRef,
} from './types.ts';

/** One key's findings under one framework's cadence: the reasons, each passing (ok) or not. */
export type KeyVerdict = { readonly hasEvidence: boolean; readonly findings: readonly Omit<ClauseReason, 'schema_key' | 'relationship'>[] };

const finding = (
  code: ReasonCode,
  ok: boolean,
  message: string,
  records: readonly RecordRef[] = [],
  extra: Partial<ClauseReason> = {},
) => ({
  rule: code === 'no_records' ? ('evidence' as const) : code.startsWith('outcome') ? ('outcome' as const) : ('cadence' as const),
  code,
  ok,
  message,
  records,
  ...extra,
});

/** The outcome rule of a key applied to the latest record of each of its series. */
const outcomeFinding = (key: EvidenceKey, evidence: KeyEvidence) => {
  const rule = outcomeRules[key].text;
  if (evidence.failing > 0) {
    return finding(
      'outcome_fail',
      false,
      `${evidence.failing} of ${evidence.series} series fail on their latest record (${rule})`,
      evidence.failing_records,
      {
        failing: evidence.failing,
      },
    );
  }
  if (evidence.unknown > 0) {
    return finding(
      'outcome_unknown',
      false,
      `${evidence.unknown} of ${evidence.series} series' latest record carries no outcome field, so no pass can be read (${rule})`,
      evidence.unknown_records,
    );
  }
  const resolved = evidence.resolved > 0 ? `; ${evidence.resolved} earlier failure(s) resolved by a later record` : '';
  return finding('outcome_pass', true, `latest record of all ${evidence.series} series passes${resolved}`, [], {
    resolved: evidence.resolved,
  });
};

/** Evidence, outcome and cadence findings for one key; the same for every clause the key is mapped to. */
export const keyVerdict = (key: EvidenceKey, evidence: KeyEvidence, cadence: Cadence, window: AssessmentWindow): KeyVerdict => {
  if (evidence.count === 0) return { hasEvidence: false, findings: [finding('no_records', false, 'no records in the period')] };
  const check = checkCadence(cadence, evidence, window);
  const code: ReasonCode = check.met ? 'cadence_met' : check.missing_months !== undefined ? 'uncovered' : 'stale';
  const extra = {
    ...(check.missing_months === undefined ? {} : { missing_months: check.missing_months }),
    ...(check.age_days === undefined ? {} : { age_days: check.age_days }),
  };
  return { hasEvidence: true, findings: [outcomeFinding(key, evidence), finding(code, check.met, check.message, [], extra)] };
};

/**
 * The documented rule (docs/clause-mapping.md): GAP when no mapped key has records in the period; SATISFIED
 * when every primary key has records, the latest record of each of its series passes and the cadence is met;
 * PARTIAL otherwise. Supporting keys lift a clause out of GAP but never decide SATISFIED.
 */
export const clauseStatus = (mappings: readonly KeyMapping[], verdicts: Readonly<Record<EvidenceKey, KeyVerdict>>): ClauseSatisfaction => {
  if (!mappings.some((mapping) => verdicts[mapping.schema_key].hasEvidence)) return 'GAP';
  const primaries = mappings.filter((mapping) => mapping.relationship === 'primary');
  return primaries.every((mapping) => verdicts[mapping.schema_key].findings.every((item) => item.ok)) ? 'SATISFIED' : 'PARTIAL';
};

/** Every key's verdict under one cadence. */
export const keyVerdicts = (assessment: EvidenceAssessment, cadence: Cadence, window: AssessmentWindow): Record<EvidenceKey, KeyVerdict> =>
  Object.fromEntries(schemaKeys.map((key) => [key, keyVerdict(key, assessment[key], cadence, window)])) as Record<EvidenceKey, KeyVerdict>;

/**
 * Clause satisfaction for the requested frameworks, in framework then document order. Only clauses with an
 * evidence mapping appear (the others are out of scope of machine evidence; `frameworkClauses` lists them with
 * their reason). evidence_count is the sum of the record counts of the clause's mapped keys; `reasons` says,
 * per mapped key, which rule passed or failed and on which records.
 */
export const computeClauseMap = (
  frameworks: readonly FrameworkId[],
  assessment: EvidenceAssessment,
  cadences: Readonly<Record<FrameworkId, Cadence>>,
  window: AssessmentWindow,
): ClauseMapEntry[] =>
  [...new Set(frameworks)].flatMap((framework) => {
    const verdicts = keyVerdicts(assessment, cadences[framework], window);
    return frameworkClauses(framework)
      .filter((definition) => definition.mappings.length > 0)
      .map((definition) => {
        const evidence = definition.mappings.map((mapping) => ({
          schema_key: mapping.schema_key,
          relationship: mapping.relationship,
          count: assessment[mapping.schema_key].count,
        }));
        return {
          framework,
          clause_id: definition.clause_id,
          clause_name: definition.clause_name,
          description: definition.description,
          status: clauseStatus(definition.mappings, verdicts),
          evidence_count: evidence.reduce((sum, item) => sum + item.count, 0),
          parent: definition.parent,
          level: definition.level,
          evidence,
          reasons: definition.mappings.flatMap((mapping) =>
            verdicts[mapping.schema_key].findings.map((item) => ({
              schema_key: mapping.schema_key,
              relationship: mapping.relationship,
              ...item,
            })),
          ),
        };
      });
  });

/** The assessment window for a range: as-of is `to`, or today (UTC) when the range is open. */
export const assessmentWindow = (assessment: EvidenceAssessment, range: { from?: string; to?: string }, now: Date): AssessmentWindow => {
  const firsts = schemaKeys.map((key) => assessment[key].first_at).filter((at): at is string => at !== null);
  const first = firsts.length === 0 ? null : firsts.reduce((a, b) => (a < b ? a : b)).slice(0, 10);
  return {
    from: range.from ?? null,
    to: range.to ?? null,
    as_of: range.to ?? now.toISOString().slice(0, 10),
    period_start: range.from ?? first,
  };
};
