import type { App } from '../../app.ts';
import { assessEvidence, assessmentCounts } from './assess.ts';
import type { EvidenceAssessment } from './key-evidence.ts';
import type { AssessmentWindow, Cadence } from './cadence.ts';
import { cadencesOf, projectCadences } from './cadence-store.ts';
import { assessmentWindow, computeClauseMap } from './compute.ts';
import { postureRuleVersion } from './outcome-rules.ts';
import type { ClauseMapEntry, EvidenceKey, FrameworkId } from './types.ts';

/** Which project, inclusive UTC date range and frameworks a clause map covers. */
export type ClauseMapQuery = { projectId: string; from?: string; to?: string; frameworks: readonly FrameworkId[] };

/** A project's clause map with everything it was computed from: the body of clause_map.json and of the op. */
export type ProjectClauseMap = {
  readonly rule_version: string;
  readonly project_id: string;
  readonly window: AssessmentWindow;
  readonly frameworks: readonly FrameworkId[];
  readonly cadences: Readonly<Record<FrameworkId, Cadence>>;
  readonly record_counts: Record<EvidenceKey, number>;
  /** Per key: counts, months covered and the outcome of each series' latest record (no payloads). */
  readonly evidence_summary: EvidenceAssessment;
  readonly entries: ClauseMapEntry[];
};

/**
 * Reads the store (aggregated in SQL) and the project's cadences, then applies the rule. `to` fixes the as-of
 * day; an open range is judged as of today.
 */
export const projectClauseMap = async (app: App, q: ClauseMapQuery): Promise<ProjectClauseMap> =>
  clauseMapOf(app, q, await assessEvidence(app, { projectId: q.projectId, ...rangeOf(q) }));

/** The clause map from an assessment already made (a bundle build tallies it in its pass, evidence-tally.ts). */
export const clauseMapOf = async (app: App, q: ClauseMapQuery, assessment: EvidenceAssessment): Promise<ProjectClauseMap> => {
  const range = rangeOf(q);
  const window = assessmentWindow(assessment, range, app.now());
  const cadences = cadencesOf(await projectCadences(app, q.projectId));
  return {
    rule_version: postureRuleVersion,
    project_id: q.projectId,
    window,
    frameworks: q.frameworks,
    cadences,
    record_counts: assessmentCounts(assessment),
    evidence_summary: assessment,
    entries: computeClauseMap(q.frameworks, assessment, cadences, window),
  };
};

const rangeOf = (q: ClauseMapQuery): { from?: string; to?: string } => ({
  ...(q.from === undefined ? {} : { from: q.from }),
  ...(q.to === undefined ? {} : { to: q.to }),
});
