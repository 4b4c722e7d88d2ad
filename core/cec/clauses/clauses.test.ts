import { readFileSync } from 'node:fs';
import euAiActData from '../frameworks/eu_ai_act.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { schemaKeys } from '../../audit/types.ts';
import { AppError } from '../../errors.ts';
import { unknownMappedClauses } from './catalog.ts';
import { mappingTablesMarkdown } from './mapping-doc.ts';
import { type EvidenceAssessment, emptyKeyEvidence } from './key-evidence.ts';
import { defaultCadences } from './cadence.ts';
import { keyVerdicts } from './compute.ts';
import {
  clauseStatus,
  computeClauseMap,
  type EvidenceCounts,
  frameworkClauses,
  frameworkDisplayName,
  type FrameworkId,
  frameworkIds,
  type KeyMapping,
  resolveFramework,
} from './index.ts';

/** Passing, current evidence in `count` records per key (one series each), as of 2026-06-30. */
const counts = (partial: Partial<EvidenceCounts> = {}): EvidenceAssessment =>
  Object.fromEntries(
    schemaKeys.map((key) => {
      const n = partial[key] ?? 0;
      if (n === 0) return [key, emptyKeyEvidence];
      const at = '2026-06-20T00:00:00.000Z';
      return [key, { ...emptyKeyEvidence, count: n, first_at: at, latest_at: at, months: { '2026-06': n }, series: 1, passing: 1 }];
    }),
  ) as EvidenceAssessment;
const window = { from: '2026-06-01', to: '2026-06-30', as_of: '2026-06-30', period_start: '2026-06-01' };
const map = (frameworks: readonly FrameworkId[], assessment: EvidenceAssessment) =>
  computeClauseMap(frameworks, assessment, defaultCadences, window);
const status = (mappings: readonly KeyMapping[], assessment: EvidenceAssessment) =>
  clauseStatus(mappings, keyVerdicts(assessment, defaultCadences.eu_ai_act, window));

describe('resolveFramework', () => {
  it.each([
    ['eu_ai_act', 'eu_ai_act'],
    ['EU AI Act', 'eu_ai_act'],
    ['eu ai act', 'eu_ai_act'],
    ['ISO/IEC 42001', 'iso_42001'],
    ['iso 42001', 'iso_42001'],
    ['NIST AI RMF', 'nist_ai_rmf'],
    ['NIST AI RMF 1.0', 'nist_ai_rmf'],
    ['ISO/IEC 27001 (Annex A)', 'iso27001'],
    ['ISO 27001', 'iso27001'],
    ['iso_27001', 'iso27001'],
    ['SOC 2 Type II', 'soc2'],
    ['SOC2', 'soc2'],
    ['soc 2', 'soc2'],
  ] as const)('resolves %s', (value, id) => {
    expect(resolveFramework(value)).toBe(id);
  });

  it.each(['', 'gdpr', 'ISO 9001', 'soc3'])('rejects %j with a VALIDATION error listing the accepted values', (value) => {
    let caught: unknown;
    try {
      resolveFramework(value);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    const error = caught as AppError;
    expect(error.code).toBe('VALIDATION');
    for (const id of frameworkIds) expect(error.message).toContain(`${id} (${frameworkDisplayName(id)})`);
  });

  it('has the display names of the spec', () => {
    expect(frameworkIds.map(frameworkDisplayName)).toEqual([
      'EU AI Act',
      'ISO/IEC 42001',
      'NIST AI RMF',
      'ISO/IEC 27001 (Annex A)',
      'SOC 2 Type II',
    ]);
  });
});

describe('clause catalog', () => {
  it.each(frameworkIds)('%s: every mapping is well formed and every unmapped clause has a reason', (framework) => {
    expect(unknownMappedClauses(framework)).toEqual([]);
    for (const definition of frameworkClauses(framework)) {
      expect(definition.source).toMatch(/\S/);
      if (definition.mappings.length === 0) {
        expect(definition.exclusion, definition.clause_id).toMatch(/\S{3}/);
        continue;
      }
      expect(definition.exclusion).toBeNull();
      expect(definition.description.length, definition.clause_id).toBeGreaterThan(20);
      expect(
        definition.mappings.some((m) => m.relationship === 'primary'),
        definition.clause_id,
      ).toBe(true);
      const keys = definition.mappings.map((m) => m.schema_key);
      expect(new Set(keys).size, `${definition.clause_id} repeats a key`).toBe(keys.length);
      for (const mapping of definition.mappings) {
        expect(schemaKeys).toContain(mapping.schema_key);
        expect(mapping.rationale.length).toBeGreaterThan(10);
      }
    }
  });

  it('keeps ids, names and order of the framework data', () => {
    const clauses = frameworkClauses('eu_ai_act');
    expect(clauses.map((c) => [c.clause_id, c.clause_name, c.parent])).toEqual(
      euAiActData.clauses.map((c) => [c.clause_id, c.clause_name, c.parent]),
    );
  });

  it('maps every EU AI Act article the spec names', () => {
    const mapped = new Set(map(['eu_ai_act'], counts()).map((entry) => entry.clause_id));
    for (const article of [9, 10, 12, 13, 14, 15]) expect(mapped).toContain(`Article ${article}`);
  });

  it('marks headings with children as groups', () => {
    const article9 = frameworkClauses('eu_ai_act').find((c) => c.clause_id === 'Article 9');
    expect(article9?.level).toBe('group');
    expect(frameworkClauses('soc2').find((c) => c.clause_id === 'CC7.2')?.level).toBe('clause');
  });
});

describe('clauseStatus (the documented rule)', () => {
  const mappings: KeyMapping[] = [
    { schema_key: 'score_records', relationship: 'primary', rationale: 'r' },
    { schema_key: 'drift_events', relationship: 'primary', rationale: 'r' },
    { schema_key: 'bias_reports', relationship: 'supporting', rationale: 'r' },
  ];
  it('SATISFIED when every primary key has records', () => {
    expect(status(mappings, counts({ score_records: 1, drift_events: 4 }))).toBe('SATISFIED');
  });
  it('PARTIAL when one primary key has none', () => {
    expect(status(mappings, counts({ score_records: 5, bias_reports: 2 }))).toBe('PARTIAL');
  });
  it('PARTIAL when only a supporting key has records', () => {
    expect(status(mappings, counts({ bias_reports: 9 }))).toBe('PARTIAL');
  });
  it('GAP when no mapped key has records, whatever the unmapped keys hold', () => {
    expect(status(mappings, counts({ pii_detections: 100, gate_evaluations: 3 }))).toBe('GAP');
  });
});

describe('computeClauseMap', () => {
  it('sums the counts of the mapped keys and lists them for drill-down', () => {
    const entries = map(['eu_ai_act'], counts({ score_records: 3, drift_events: 2, bias_reports: 7 }));
    const article15 = entries.find((entry) => entry.clause_id === 'Article 15(1)');
    expect(article15).toMatchObject({
      framework: 'eu_ai_act',
      clause_name: 'Appropriate accuracy, robustness, cybersecurity across lifecycle',
      status: 'SATISFIED',
      evidence_count: 5,
      level: 'clause',
      parent: 'Article 15',
    });
    expect(article15?.evidence).toEqual([
      { schema_key: 'score_records', relationship: 'primary', count: 3 },
      { schema_key: 'drift_events', relationship: 'primary', count: 2 },
      { schema_key: 'gate_evaluations', relationship: 'supporting', count: 0 },
    ]);
  });

  it('lists only mapped clauses, per framework in the order asked, once each', () => {
    const entries = map(['soc2', 'eu_ai_act', 'soc2'], counts());
    expect(entries[0]?.framework).toBe('soc2');
    expect(entries.at(-1)?.framework).toBe('eu_ai_act');
    expect(entries.filter((entry) => entry.clause_id === 'CC7.2')).toHaveLength(1);
    expect(entries.some((entry) => entry.clause_id === 'Article 9(3)')).toBe(false);
    expect(entries.every((entry) => entry.status === 'GAP' && entry.evidence_count === 0)).toBe(true);
    expect(entries[0]?.reasons.every((reason) => reason.code === 'no_records' && !reason.ok)).toBe(true);
  });

  it('rolls groups up consistently with their children for any counts', () => {
    for (let trial = 0; trial < 64; trial += 1) {
      const sample = counts(Object.fromEntries(schemaKeys.map((key, i) => [key, (trial >> i) & 1])));
      const entries = map(frameworkIds, sample);
      for (const group of entries.filter((entry) => entry.level === 'group')) {
        const children = entries.filter((e) => e.framework === group.framework && e.parent === group.clause_id);
        const statuses = new Set(children.map((child) => child.status));
        const expected = statuses.size === 1 ? [...statuses][0] : 'PARTIAL';
        expect(group.status, `${group.framework} ${group.clause_id}`).toBe(expected);
      }
    }
  });

  it('is deterministic', () => {
    const sample = counts({ prri_records: 2, gate_evaluations: 1 });
    expect(map(frameworkIds, sample)).toEqual(map(frameworkIds, sample));
  });
});

describe('docs/clause-mapping.md', () => {
  it('carries the mapping tables exactly as the code defines them', () => {
    const doc = readFileSync(new URL('../../../docs/clause-mapping.md', import.meta.url), 'utf8');
    expect(doc.endsWith(mappingTablesMarkdown()), 'regenerate the tables: see the command in the document').toBe(true);
  });
});
