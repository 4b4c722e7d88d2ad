import { describe, expect, it } from 'vitest';
import { examplePayloads } from './examples.ts';
import { payloadSchemas } from './schemas.ts';
import { schemaKeys } from './types.ts';
import type { SchemaKey } from './types.ts';

const accepts = (key: SchemaKey, payload: unknown): boolean => payloadSchemas[key].safeParse(payload).success;
const issues = (key: SchemaKey, payload: unknown): string =>
  JSON.stringify(payloadSchemas[key].safeParse(payload).error?.issues.map((i) => [i.path.join('.'), i.message]));

describe('payload schemas', () => {
  it.each(schemaKeys)('%s accepts its example with labels and extra, and rejects a typoed field', (key) => {
    const example = examplePayloads[key];
    expect(accepts(key, example)).toBe(true);
    expect(accepts(key, { ...example, labels: { team: 'risk' }, extra: { ticket: 'JIRA-1', nested: { a: [1] } } })).toBe(true);
    expect(issues(key, { ...example, modle_id: 'x' })).toContain('modle_id');
    expect(accepts(key, { ...example, labels: { team: 42 } })).toBe(false);
  });

  it('checks the consistency rules a reviewer would', () => {
    const pii = examplePayloads.pii_detections;
    expect(issues('pii_detections', { ...pii, total_findings: 5 })).toContain('sum of entity_counts');
    expect(issues('pii_detections', { ...pii, extra: { matched_text: 'jane@example.com' } })).toContain('never carry');
    expect(accepts('pii_detections', { ...pii, text: 'Call Jane' })).toBe(false);
    expect(accepts('pii_detections', { ...pii, entity_counts: { email: 4 } })).toBe(false);
    const gate = examplePayloads.gate_evaluations as { criteria: { passed: boolean }[] };
    const failed = { ...gate, criteria: [{ ...gate.criteria[0], passed: false }] };
    expect(issues('gate_evaluations', failed)).toContain('decision pass with a failed criterion');
    expect(issues('gate_evaluations', { ...failed, decision: 'override' })).toContain('approver');
    expect(accepts('gate_evaluations', { ...failed, decision: 'override', approver: 'cro', reason: 'accepted risk' })).toBe(true);
    const drift = examplePayloads.drift_events;
    expect(accepts('drift_events', { ...drift, window_start: '2026-10-08T00:00:00Z' })).toBe(false);
    expect(accepts('drift_events', { ...drift, statistic: 'PSI' })).toBe(false);
    expect(accepts('prri_records', { ...examplePayloads.prri_records, score: 101 })).toBe(false);
    expect(accepts('prri_records', { ...examplePayloads.prri_records, level: 'severe' })).toBe(false);
    expect(accepts('bias_reports', { ...examplePayloads.bias_reports, groups: [] })).toBe(false);
    expect(accepts('score_records', { ...examplePayloads.score_records, value: '0.9' })).toBe(false);
    expect(accepts('score_records', { ...examplePayloads.score_records, metric: 'ROC AUC' })).toBe(false);
  });
});
