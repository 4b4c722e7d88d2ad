import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaKeys } from '../../audit/types.ts';
import type { EvidenceAssessment, KeyEvidence } from './key-evidence.ts';
import { type AssessmentWindow, type Cadence, defaultCadences } from './cadence.ts';
import { frameworkClauses } from './catalog.ts';
import { computeClauseMap } from './compute.ts';
import { type FrameworkId, frameworkIds } from './types.ts';

/** Arbitrary per-key evidence in 2026-01..2026-06, judged as of 2026-06-30. */
const keyEvidence: fc.Arbitrary<KeyEvidence> = fc
  .record({
    months: fc.subarray(['2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06']),
    passing: fc.nat(3),
    failing: fc.nat(2),
    unknown: fc.nat(1),
  })
  .map(({ months, passing, failing, unknown }) => {
    const series = months.length === 0 ? 0 : Math.max(1, passing + failing + unknown);
    const latest = months.at(-1);
    const ref = { record_id: 'r', seq: 1, timestamp: `${latest ?? '2026-01'}-10T00:00:00.000Z` };
    return {
      count: months.length,
      first_at: months[0] === undefined ? null : `${months[0]}-10T00:00:00.000Z`,
      latest_at: latest === undefined ? null : `${latest}-10T00:00:00.000Z`,
      months: Object.fromEntries(months.map((m) => [m, 1])),
      series,
      passing: months.length === 0 ? 0 : series - Math.min(series, failing + unknown),
      failing: months.length === 0 ? 0 : Math.min(series, failing),
      unknown: months.length === 0 ? 0 : Math.min(series - Math.min(series, failing), unknown),
      resolved: 0,
      failing_records: months.length > 0 && failing > 0 ? [ref] : [],
      unknown_records: [],
    };
  });
const assessment: fc.Arbitrary<EvidenceAssessment> = fc
  .tuple(...schemaKeys.map(() => keyEvidence))
  .map((values) => Object.fromEntries(schemaKeys.map((key, i) => [key, values[i]])) as EvidenceAssessment);
const window: AssessmentWindow = { from: '2026-01-01', to: '2026-06-30', as_of: '2026-06-30', period_start: '2026-01-01' };
const cadence: fc.Arbitrary<Cadence> = fc.oneof(
  fc.constant({ kind: 'monthly' as const }),
  fc.integer({ min: 1, max: 200 }).map((days) => ({ kind: 'max_age' as const, days })),
  fc.constant({ kind: 'any' as const }),
);
const cadences = (one: Cadence): Record<FrameworkId, Cadence> =>
  Object.fromEntries(frameworkIds.map((id) => [id, one])) as Record<FrameworkId, Cadence>;

describe('the clause rule (properties over arbitrary evidence)', () => {
  it('GAP iff no mapped key has records; SATISFIED iff every primary key passes every check; reasons say why', () => {
    fc.assert(
      fc.property(assessment, cadence, (evidence, one) => {
        for (const entry of computeClauseMap(frameworkIds, evidence, cadences(one), window)) {
          const definition = frameworkClauses(entry.framework).find((c) => c.clause_id === entry.clause_id);
          const keys = definition?.mappings ?? [];
          const anyRecords = keys.some((m) => evidence[m.schema_key].count > 0);
          expect(entry.status === 'GAP').toBe(!anyRecords);
          const primaryReasons = entry.reasons.filter((r) => r.relationship === 'primary');
          expect(entry.status === 'SATISFIED').toBe(anyRecords && primaryReasons.every((r) => r.ok));
          if (entry.status === 'SATISFIED') {
            for (const m of keys.filter((k) => k.relationship === 'primary')) {
              expect(evidence[m.schema_key].failing + evidence[m.schema_key].unknown).toBe(0);
            }
          }
          // Every mapped key is explained, and a failing outcome names its records.
          expect(new Set(entry.reasons.map((r) => r.schema_key))).toEqual(new Set(keys.map((m) => m.schema_key)));
          for (const reason of entry.reasons.filter((r) => r.code === 'outcome_fail')) expect(reason.records.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a failing series on a primary key never improves a clause (monotone)', () => {
    const rank = { GAP: 0, PARTIAL: 1, SATISFIED: 2 } as const;
    fc.assert(
      fc.property(assessment, fc.constantFrom(...schemaKeys), (evidence, key) => {
        const base = evidence[key];
        if (base.count === 0) return;
        const worse = { ...evidence, [key]: { ...base, failing: base.failing + 1, series: base.series + 1 } };
        const before = computeClauseMap(frameworkIds, evidence, defaultCadences, window);
        const after = computeClauseMap(frameworkIds, worse, defaultCadences, window);
        before.forEach((entry, i) => {
          expect(rank[after[i]?.status ?? 'GAP']).toBeLessThanOrEqual(rank[entry.status]);
        });
      }),
      { numRuns: 60 },
    );
  });

  it('groups roll up: SATISFIED iff every mapped child is, GAP iff every mapped child is', () => {
    fc.assert(
      fc.property(assessment, cadence, (evidence, one) => {
        const entries = computeClauseMap(frameworkIds, evidence, cadences(one), window);
        for (const group of entries.filter((e) => e.level === 'group')) {
          const children = entries.filter((e) => e.framework === group.framework && e.parent === group.clause_id);
          if (children.length === 0) continue;
          expect(group.status === 'SATISFIED').toBe(children.every((c) => c.status === 'SATISFIED'));
          expect(group.status === 'GAP').toBe(children.every((c) => c.status === 'GAP'));
        }
      }),
      { numRuns: 40 },
    );
  });
});
