import type { EvidenceInput, SchemaKey } from './types.ts';
import { schemaKeys } from './types.ts';

/** One realistic payload per schema key: used by docs, tests, the ingest benchmark and the e2e fixture. */
export const examplePayloads: Record<SchemaKey, Record<string, unknown>> = {
  score_records: {
    model_id: 'credit-risk',
    model_version: '3.2.0',
    metric: 'roc_auc',
    value: 0.913,
    dataset: 'loans-holdout',
    dataset_version: '2026-10',
    split: 'test',
    sample_size: 12000,
    threshold: 0.85,
    higher_is_better: true,
    passed: true,
  },
  bias_reports: {
    model_id: 'credit-risk',
    model_version: '3.2.0',
    protected_attribute: 'gender',
    metric: 'demographic_parity_difference',
    reference_group: 'male',
    groups: [
      { group: 'female', value: 0.41, sample_size: 5800, selection_rate: 0.41 },
      { group: 'male', value: 0.44, sample_size: 6200, selection_rate: 0.44 },
    ],
    disparity: 0.03,
    threshold: 0.1,
    passed: true,
  },
  prri_records: {
    model_id: 'credit-risk',
    model_version: '3.2.0',
    score: 37.5,
    level: 'medium',
    factors: [
      { name: 'data_sensitivity', weight: 0.4, value: 60, contribution: 24 },
      { name: 'autonomy', weight: 0.3, value: 25, contribution: 7.5 },
      { name: 'drift_history', weight: 0.3, value: 20, contribution: 6 },
    ],
    methodology_version: 'prri-1.1',
  },
  drift_events: {
    model_id: 'credit-risk',
    model_version: '3.2.0',
    feature: 'income',
    drift_type: 'data',
    statistic: 'psi',
    value: 0.27,
    threshold: 0.2,
    detected: true,
    severity: 'high',
    window_start: '2026-10-01T00:00:00Z',
    window_end: '2026-10-07T23:59:59Z',
  },
  pii_detections: {
    source: 'support-tickets/batch-42',
    scan_id: '01JAB0CDEF',
    language: 'en',
    entity_counts: { EMAIL_ADDRESS: 3, PHONE_NUMBER: 1 },
    total_findings: 4,
    scores: { EMAIL_ADDRESS: { min: 0.9, max: 1, mean: 0.97 }, PHONE_NUMBER: { min: 0.75, max: 0.75, mean: 0.75 } },
    text_length: 1830,
    redacted: true,
  },
  gate_evaluations: {
    gate: 'release-to-production',
    model_id: 'credit-risk',
    model_version: '3.2.0',
    decision: 'pass',
    criteria: [
      { name: 'auc floor', metric: 'roc_auc', operator: '>=', threshold: 0.85, observed: 0.913, passed: true },
      { name: 'bias ceiling', metric: 'demographic_parity_difference', operator: '<=', threshold: 0.1, observed: 0.03, passed: true },
    ],
    evaluator: 'ci/release-gate',
  },
};

/** The i-th synthetic evidence input: cycles through the six keys, one event per minute from `start`. */
export const exampleEvidence = (i: number, projectId: string, start = Date.UTC(2026, 0, 1)): EvidenceInput => {
  const key = schemaKeys[i % schemaKeys.length] as SchemaKey;
  return {
    project_id: projectId,
    schema_key: key,
    record_id: `${projectId}-${i}`,
    timestamp: new Date(start + i * 60_000).toISOString(),
    payload: examplePayloads[key],
  };
};
