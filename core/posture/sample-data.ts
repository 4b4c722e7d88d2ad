import type { EvidenceInput, SchemaKey } from '../audit/types.ts';

/** The sample project's id; its `sample-` prefix and the posture_samples row mark it as sample data. */
export const sampleProjectId = 'sample-credit-ai';

/** A small deterministic PRNG (mulberry32): the same day gives the same sample. */
const random = (seed: number) => {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const models = [
  { id: 'credit-risk', version: (m: number) => `3.${m}.0`, metric: 'roc_auc', base: 0.91, threshold: 0.85 },
  { id: 'fraud-detector', version: (m: number) => `1.${m}.2`, metric: 'recall', base: 0.83, threshold: 0.8 },
  { id: 'support-assistant', version: (m: number) => `0.${9 + m}.0`, metric: 'answer_accuracy', base: 0.88, threshold: 0.82 },
] as const;

const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/**
 * Six months of evidence for three models, ending today. Failing now: fraud-detector's recall, an unresolved
 * drift and a rejected release gate. Failed earlier and resolved since: a drift, a bias disparity, a critical
 * risk, unredacted PII in one source. Also an overridden gate, an accepted high risk, and a month without drift
 * monitoring (the coverage gap a SOC 2 Type II period shows).
 */
export const generateSample = (now: Date): EvidenceInput[] => {
  const rnd = random(Number(now.toISOString().slice(0, 10).replaceAll('-', '')));
  const out: EvidenceInput[] = [];
  let n = 0;
  const add = (key: SchemaKey, at: Date, payload: Record<string, unknown>) => {
    n += 1;
    out.push({
      project_id: sampleProjectId,
      schema_key: key,
      timestamp: at.toISOString(),
      record_id: `sample-${String(n).padStart(5, '0')}`,
      payload: { ...payload, labels: { sample: 'true', ...((payload.labels as Record<string, string> | undefined) ?? {}) } },
    });
  };
  const day = (monthsAgo: number, dayOfMonth: number, hour = 9) =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, dayOfMonth, hour, Math.floor(rnd() * 60)));
  for (let ago = 5; ago >= 0; ago -= 1) {
    const m = 5 - ago;
    const days = ago === 0 ? Math.max(1, now.getUTCDate() - 1) : 27;
    const at = (d: number, hour?: number) => day(ago, Math.min(d, days), hour);
    models.forEach((model, index) => {
      const weekly = ago === 0 ? Math.max(1, Math.ceil(days / 7)) : 4;
      for (let w = 0; w < weekly; w += 1) {
        // fraud-detector's recall slips under its threshold in the latest month: a failing outcome.
        const slip = model.id === 'fraud-detector' && ago === 0 ? -0.06 : 0;
        const value = round(model.base + slip + (rnd() - 0.5) * 0.02);
        add('score_records', at(1 + w * 7, 6 + index), {
          model_id: model.id,
          model_version: model.version(m),
          metric: model.metric,
          value,
          threshold: model.threshold,
          higher_is_better: true,
          passed: value >= model.threshold,
          dataset: `${model.id}-holdout`,
          split: 'test',
          sample_size: 5000 + Math.floor(rnd() * 1000),
        });
      }
      // support-assistant's age-band disparity exceeded its threshold for two months, then was mitigated.
      const disparity = round(model.id === 'support-assistant' && (ago === 2 || ago === 3) ? 0.14 + rnd() * 0.02 : 0.03 + rnd() * 0.03);
      add('bias_reports', at(10, 11), {
        model_id: model.id,
        model_version: model.version(m),
        protected_attribute: 'age_band',
        metric: 'demographic_parity_difference',
        reference_group: '25-44',
        groups: [
          { group: '18-24', value: round(0.4 - disparity / 2), sample_size: 800 },
          { group: '25-44', value: 0.4, sample_size: 2400 },
          { group: '45+', value: round(0.4 + disparity / 3), sample_size: 1300 },
        ],
        disparity,
        threshold: 0.1,
        passed: disparity <= 0.1,
      });
      // support-assistant stays high risk, accepted by the CRO; fraud-detector was critical once, then mitigated.
      const level = model.id === 'support-assistant' ? 'high' : model.id === 'fraud-detector' && ago === 2 ? 'critical' : 'medium';
      add('prri_records', at(12, 14), {
        model_id: model.id,
        model_version: model.version(m),
        score: level === 'critical' ? 82 : level === 'high' ? 68 : 41,
        level,
        factors: [
          { name: 'autonomy', weight: 0.4, value: level === 'medium' ? 30 : 70, rationale: 'decisions without human review' },
          { name: 'data_sensitivity', weight: 0.6, value: 50 },
        ],
        methodology_version: 'prri-2',
        assessor: 'risk-office',
        ...(level === 'high' ? { accepted_by: 'Chief Risk Officer' } : {}),
      });
      // No drift monitoring ran three months ago: an uncovered month.
      if (ago !== 3) {
        for (const feature of ['income', 'tenure']) {
          const detected = model.id === 'credit-risk' && feature === 'income' && ago === 1;
          const unresolved = model.id === 'fraud-detector' && feature === 'tenure' && ago === 0;
          add('drift_events', at(15, 3), {
            model_id: model.id,
            model_version: model.version(m),
            feature,
            drift_type: 'data',
            statistic: 'psi',
            value: round(detected || unresolved ? 0.27 + rnd() * 0.05 : 0.04 + rnd() * 0.06),
            threshold: 0.2,
            detected: detected || unresolved,
            severity: detected || unresolved ? 'high' : 'low',
            reference_dataset: `${model.id}-train`,
          });
        }
      }
      const decision =
        model.id === 'fraud-detector' && ago === 0 ? 'fail' : model.id === 'support-assistant' && ago === 1 ? 'override' : 'pass';
      add('gate_evaluations', at(20, 16), {
        gate: 'release',
        gate_version: '2',
        model_id: model.id,
        model_version: model.version(m),
        decision,
        criteria: [
          {
            name: `${model.metric} floor`,
            metric: model.metric,
            operator: '>=',
            threshold: model.threshold,
            observed: model.base,
            passed: decision !== 'fail',
          },
          {
            name: 'bias ceiling',
            metric: 'demographic_parity_difference',
            operator: '<=',
            threshold: 0.1,
            observed: 0.05,
            passed: decision === 'pass',
          },
        ],
        evaluator: 'ml-platform-ci',
        ...(decision === 'override' ? { approver: 'Head of AI', reason: 'bias mitigation shipped in the next release' } : {}),
      });
    });
    // The second month's income drift on credit-risk is resolved by a clean re-check a week later.
    if (ago === 1) {
      add('drift_events', day(1, 22, 3), {
        model_id: 'credit-risk',
        feature: 'income',
        statistic: 'psi',
        value: 0.08,
        threshold: 0.2,
        detected: false,
        reference_dataset: 'credit-risk-train',
      });
    }
    for (const [source, redacted] of [
      ['chat.filter', true],
      ['batch:loan-applications', true],
      ['batch:support-tickets', ago !== 2],
    ] as const) {
      const email = 1 + Math.floor(rnd() * 4);
      const phone = Math.floor(rnd() * 3);
      add('pii_detections', at(5, 12), {
        source,
        language: 'en',
        entity_counts: { EMAIL_ADDRESS: email, PHONE_NUMBER: phone },
        total_findings: email + phone,
        text_length: 4000 + Math.floor(rnd() * 2000),
        redacted,
      });
    }
  }
  return out.sort((a, b) => ((a.timestamp ?? '') < (b.timestamp ?? '') ? -1 : 1));
};
