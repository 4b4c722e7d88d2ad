import { z } from 'zod';
import type { SchemaKey } from './types.ts';

/**
 * One strict schema per evidence kind. Strict objects reject unknown (typoed) fields; producers put anything
 * else in `labels` (short string tags) or `extra` (free JSON). Documented in docs/evidence-schemas.md.
 */

/**
 * A strict object whose shape is declared in sorted key order: zod writes its output in shape order, so a
 * validated payload usually already has JCS key order and canonicalising it needs no copy (ingest hot path).
 */
const sortedStrictObject = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(Object.fromEntries(Object.entries(shape).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as S);

const name = z.string().trim().min(1).max(200);
const shortText = z.string().max(2000);
const snakeName = z
  .string()
  .max(100)
  .regex(/^[a-z][a-z0-9_]*$/, 'expected snake_case, e.g. demographic_parity_difference');
const finite = z.number();
const count = z.int().min(0);
const isoDateTime = z.iso.datetime({ offset: true });

const common = {
  labels: z.record(z.string().min(1).max(64), z.string().max(256)).optional(),
  extra: z.record(z.string().max(200), z.unknown()).optional(),
};
const model = { model_id: name, model_version: name };

export const scoreRecordSchema = sortedStrictObject({
  ...model,
  metric: snakeName,
  value: finite,
  dataset: name,
  dataset_version: name.optional(),
  split: z.enum(['train', 'validation', 'test', 'holdout', 'production']).optional(),
  sample_size: count.optional(),
  threshold: finite.optional(),
  higher_is_better: z.boolean().optional(),
  passed: z.boolean().optional(),
  ...common,
});

export const biasReportSchema = sortedStrictObject({
  ...model,
  protected_attribute: name,
  metric: snakeName,
  reference_group: name.optional(),
  groups: z
    .array(
      sortedStrictObject({
        group: name,
        value: finite,
        sample_size: count.optional(),
        selection_rate: z.number().min(0).max(1).optional(),
      }),
    )
    .min(1)
    .max(1000),
  disparity: finite,
  threshold: finite,
  passed: z.boolean(),
  dataset: name.optional(),
  ...common,
});

export const riskLevels = ['low', 'medium', 'high', 'critical'] as const;

export const prriRecordSchema = sortedStrictObject({
  model_id: name,
  model_version: name.optional(),
  score: z.number().min(0).max(100),
  level: z.enum(riskLevels),
  factors: z
    .array(
      sortedStrictObject({
        name,
        weight: z.number().min(0).max(1),
        value: finite,
        contribution: finite.optional(),
        rationale: shortText.optional(),
      }),
    )
    .max(200),
  methodology_version: name.optional(),
  assessor: name.optional(),
  // Who accepted a high or critical residual risk; the clause rule reads it (docs/clause-mapping.md).
  accepted_by: name.optional(),
  ...common,
});

export const driftEventSchema = sortedStrictObject({
  model_id: name,
  model_version: name.optional(),
  feature: name,
  drift_type: z.enum(['data', 'prediction', 'concept', 'label']).optional(),
  statistic: z.enum(['psi', 'ks', 'js_divergence', 'kl_divergence', 'wasserstein', 'chi_squared', 'other']),
  value: finite,
  threshold: finite,
  detected: z.boolean(),
  severity: z.enum(riskLevels).optional(),
  window_start: isoDateTime.optional(),
  window_end: isoDateTime.optional(),
  reference_dataset: name.optional(),
  ...common,
}).refine((d) => !d.window_start || !d.window_end || Date.parse(d.window_start) <= Date.parse(d.window_end), {
  message: 'window_start must not be after window_end',
  path: ['window_end'],
});

/** Keys that would carry scanned text or matched values; a pii_detections record never holds them. */
const rawTextKeys = /^(text|raw|raw_text|value|values|match|matches|matched|matched_text|content|snippet)$/i;

export const piiDetectionSchema = sortedStrictObject({
  source: name,
  scan_id: name.optional(),
  language: z.string().min(2).max(10).optional(),
  entity_counts: z.record(z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'entity types are UPPER_SNAKE'), count),
  total_findings: count,
  scores: z
    .record(
      z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/),
      sortedStrictObject({ min: z.number().min(0).max(1), max: z.number().min(0).max(1), mean: z.number().min(0).max(1) }),
    )
    .optional(),
  text_length: count.optional(),
  redacted: z.boolean().optional(),
  model_id: name.optional(),
  ...common,
})
  .refine((d) => Object.values(d.entity_counts).reduce((a, b) => a + b, 0) === d.total_findings, {
    message: 'total_findings must equal the sum of entity_counts',
    path: ['total_findings'],
  })
  .refine((d) => !d.extra || !Object.keys(d.extra).some((key) => rawTextKeys.test(key)), {
    message: 'pii_detections never carry scanned text or matched values',
    path: ['extra'],
  });

const criterionValue = z.union([finite, z.string().max(200), z.boolean()]);

export const gateEvaluationSchema = sortedStrictObject({
  gate: name,
  gate_version: name.optional(),
  ...model,
  decision: z.enum(['pass', 'fail', 'warn', 'override']),
  criteria: z
    .array(
      sortedStrictObject({
        name,
        metric: snakeName.optional(),
        operator: z.enum(['>', '>=', '<', '<=', '==', '!=']).optional(),
        threshold: criterionValue.optional(),
        observed: criterionValue.optional(),
        passed: z.boolean(),
      }),
    )
    .min(1)
    .max(500),
  evaluator: name.optional(),
  approver: name.optional(),
  reason: shortText.optional(),
  ...common,
})
  .refine((g) => g.decision !== 'override' || (g.approver !== undefined && g.reason !== undefined), {
    message: 'an override needs an approver and a reason',
    path: ['approver'],
  })
  .refine((g) => g.decision !== 'pass' || g.criteria.every((c) => c.passed), {
    message: 'decision pass with a failed criterion; use warn or override',
    path: ['decision'],
  });

/** The payload schema of each key. */
export const payloadSchemas: Record<SchemaKey, z.ZodType<Record<string, unknown>>> = {
  score_records: scoreRecordSchema,
  bias_reports: biasReportSchema,
  prri_records: prriRecordSchema,
  drift_events: driftEventSchema,
  pii_detections: piiDetectionSchema,
  gate_evaluations: gateEvaluationSchema,
};
