import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { examplePayloads } from '../../audit/examples.ts';
import { appendEvidence } from '../../audit/store.ts';
import type { SchemaKey } from '../../audit/types.ts';
import { appPerTest, type TestBackend, testBackends } from '../../test-support/backends.ts';
import { assessEvidence } from './assess.ts';
import { setProjectCadence } from './cadence-store.ts';
import { type ProjectClauseMap, projectClauseMap } from './clause-map.ts';

const project = 'rules';
let app: App;
let counter = 0;

const add = async (key: SchemaKey, at: string, payload: Record<string, unknown>) => {
  counter += 1;
  return (await appendEvidence(app, [{ project_id: project, schema_key: key, timestamp: at, record_id: `r${counter}`, payload }]))[0];
};

const drift = (feature: string, detected: boolean) => ({ ...examplePayloads.drift_events, feature, detected });
const entry = (map: ProjectClauseMap, clauseId: string) => {
  const found = map.entries.find((e) => e.clause_id === clauseId);
  if (found === undefined) throw new Error(`no entry ${clauseId}`);
  return found;
};

const clock = { now: () => new Date('2026-07-15T12:00:00.000Z') };
/** The test's app on `backend`, in `app` for the helpers above. */
const useApp = (backend: TestBackend) => {
  const t = appPerTest(backend, clock);
  beforeEach(() => {
    app = t().app;
  });
  return t;
};

describe.each(testBackends)('outcome rules read from the store (one per schema key) on $name', (backend) => {
  const t = useApp(backend);
  it.each([
    ['score_records', { passed: true }, 'pass'],
    ['score_records', { passed: false }, 'fail'],
    ['score_records', { passed: undefined, threshold: 0.9, value: 0.95 }, 'pass'],
    ['score_records', { passed: undefined, threshold: 0.9, value: 0.85 }, 'fail'],
    ['score_records', { passed: undefined, threshold: 0.1, value: 0.05, higher_is_better: false }, 'pass'],
    ['score_records', { passed: undefined, threshold: undefined }, 'unknown'],
    ['bias_reports', { passed: true }, 'pass'],
    ['bias_reports', { passed: false }, 'fail'],
    ['prri_records', { level: 'medium' }, 'pass'],
    ['prri_records', { level: 'critical' }, 'fail'],
    ['prri_records', { level: 'high', accepted_by: 'CRO' }, 'pass'],
    ['drift_events', { detected: false }, 'pass'],
    ['drift_events', { detected: true }, 'fail'],
    ['pii_detections', { entity_counts: {}, total_findings: 0, redacted: false }, 'pass'],
    ['pii_detections', { redacted: true }, 'pass'],
    ['pii_detections', { redacted: false }, 'fail'],
    ['pii_detections', { redacted: undefined }, 'unknown'],
    ['gate_evaluations', { decision: 'override', approver: 'cto', reason: 'accepted' }, 'pass'],
    ['gate_evaluations', { decision: 'fail', criteria: [{ name: 'auc', passed: false }] }, 'fail'],
    ['gate_evaluations', { decision: 'warn', criteria: [{ name: 'auc', passed: false }] }, 'fail'],
  ] as const)('%s %j → %s', async (key, change, expected) => {
    const payload: Record<string, unknown> = { ...examplePayloads[key], ...change };
    for (const [name, value] of Object.entries(change)) if (value === undefined) delete payload[name];
    const record = await add(key, '2026-07-01T00:00:00.000Z', payload);
    const evidence = (await assessEvidence(app, { projectId: project }))[key];
    expect(evidence).toMatchObject({ count: 1, series: 1 });
    const outcome = evidence.passing === 1 ? 'pass' : evidence.failing === 1 ? 'fail' : 'unknown';
    expect(outcome).toBe(expected);
    if (expected !== 'pass') {
      expect([...evidence.failing_records, ...evidence.unknown_records].map((ref) => ref.record_id)).toEqual([record?.record_id]);
    }
  });

  it('a detected drift resolved by a later record of the same model and feature passes; another feature does not resolve it', async () => {
    await add('drift_events', '2026-07-01T00:00:00.000Z', drift('income', true));
    await add('drift_events', '2026-07-02T00:00:00.000Z', drift('age', false));
    const before = (await assessEvidence(app, { projectId: project })).drift_events;
    expect(before).toMatchObject({ series: 2, failing: 1, passing: 1, resolved: 0 });
    await add('drift_events', '2026-07-03T00:00:00.000Z', drift('income', false));
    expect((await assessEvidence(app, { projectId: project })).drift_events).toMatchObject({
      series: 2,
      failing: 0,
      passing: 2,
      resolved: 1,
    });
    // Event time decides "later", not the order of arrival: a back-dated clean record does not resolve.
    await add('drift_events', '2026-07-04T00:00:00.000Z', drift('tenure', true));
    await add('drift_events', '2026-06-30T00:00:00.000Z', drift('tenure', false));
    expect((await assessEvidence(app, { projectId: project })).drift_events).toMatchObject({ series: 3, failing: 1 });
  });

  it('reuses an aggregate while the chain head is unchanged and recomputes after an append', async () => {
    await add('drift_events', '2026-07-01T00:00:00.000Z', drift('income', true));
    const first = await assessEvidence(app, { projectId: project });
    expect(await assessEvidence(app, { projectId: project })).toBe(first);
    await add('drift_events', '2026-07-02T00:00:00.000Z', drift('income', false));
    expect((await assessEvidence(app, { projectId: project })).drift_events).toMatchObject({ count: 2, failing: 0, resolved: 1 });
  });

  it('agrees with a plain in-memory oracle for any sequence of drift results (property)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ feature: fc.constantFrom('a', 'b', 'c'), day: fc.integer({ min: 1, max: 28 }), detected: fc.boolean() }), {
          minLength: 1,
          maxLength: 25,
        }),
        async (events) => {
          // A project of its own per run: a fresh database per run would cost seconds on PostgreSQL.
          run += 1;
          const runProject = `${project}-${run}`;
          await appendEvidence(
            app,
            events.map((event, i) => ({
              project_id: runProject,
              schema_key: 'drift_events' as const,
              timestamp: `2026-03-${String(event.day).padStart(2, '0')}T00:00:${String(i).padStart(2, '0')}.000Z`,
              record_id: `p${i}`,
              payload: drift(event.feature, event.detected),
            })),
          );
          const latest = new Map<string, { at: string; detected: boolean }>();
          events.forEach((event, i) => {
            const at = `${String(event.day).padStart(2, '0')}${String(i).padStart(2, '0')}`;
            const seen = latest.get(event.feature);
            if (seen === undefined || at > seen.at) latest.set(event.feature, { at, detected: event.detected });
          });
          const evidence = (await assessEvidence(app, { projectId: runProject })).drift_events;
          expect(evidence.series).toBe(latest.size);
          expect(evidence.failing).toBe([...latest.values()].filter((v) => v.detected).length);
          expect(evidence.count).toBe(events.length);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('another instance sees the appended records and its own cadence at once (the cache is keyed by the shared head)', async () => {
    await add('drift_events', '2026-07-01T00:00:00.000Z', drift('income', true));
    const second = await t().second();
    expect((await assessEvidence(second, { projectId: project })).drift_events).toMatchObject({ count: 1, failing: 1 });
    await add('drift_events', '2026-07-02T00:00:00.000Z', drift('income', false));
    expect((await assessEvidence(second, { projectId: project })).drift_events).toMatchObject({ count: 2, failing: 0, resolved: 1 });
    await setProjectCadence(second, project, 'soc2', { kind: 'any' }, 'test');
    expect((await projectClauseMap(app, { projectId: project, frameworks: ['soc2'] })).cadences.soc2).toEqual({ kind: 'any' });
  });
});

describe.each(testBackends)('clause status over a period (cadence and outcome together) on $name', (backend) => {
  useApp(backend);
  const everyMonth = async (key: SchemaKey, payload: Record<string, unknown>, months: readonly string[]) => {
    for (const month of months) await add(key, `2026-${month}-15T00:00:00.000Z`, payload);
  };
  const firstHalf = ['01', '02', '03', '04', '05', '06'];

  it('SOC 2 CC7.2 is SATISFIED with clean drift checks in every month of the period', async () => {
    await everyMonth('drift_events', drift('income', false), firstHalf);
    const map = await projectClauseMap(app, { projectId: project, from: '2026-01-01', to: '2026-06-30', frameworks: ['soc2'] });
    const cc72 = entry(map, 'CC7.2');
    expect(cc72.status).toBe('SATISFIED');
    expect(cc72.reasons.map((r) => [r.code, r.ok])).toEqual([
      ['outcome_pass', true],
      ['cadence_met', true],
    ]);
  });

  it('an uncovered month makes it PARTIAL and names the month', async () => {
    await everyMonth('drift_events', drift('income', false), ['01', '02', '04', '05', '06']);
    const map = await projectClauseMap(app, { projectId: project, from: '2026-01-01', to: '2026-06-30', frameworks: ['soc2'] });
    const cc72 = entry(map, 'CC7.2');
    expect(cc72.status).toBe('PARTIAL');
    expect(cc72.reasons.find((r) => r.rule === 'cadence')).toMatchObject({ code: 'uncovered', ok: false, missing_months: ['2026-03'] });
  });

  it('a failing latest outcome makes it PARTIAL and names the record; a later clean record restores it', async () => {
    await everyMonth('drift_events', drift('income', false), firstHalf.slice(0, 5));
    const failing = await add('drift_events', '2026-06-10T00:00:00.000Z', drift('income', true));
    const range = { projectId: project, from: '2026-01-01', to: '2026-06-30', frameworks: ['soc2' as const] };
    const outcome = entry(await projectClauseMap(app, range), 'CC7.2').reasons.find((r) => r.rule === 'outcome');
    expect(outcome).toMatchObject({ code: 'outcome_fail', ok: false, records: [{ record_id: failing?.record_id, seq: failing?.seq }] });
    expect(entry(await projectClauseMap(app, range), 'CC7.2').status).toBe('PARTIAL');
    await add('drift_events', '2026-06-20T00:00:00.000Z', drift('income', false));
    const resolved = entry(await projectClauseMap(app, range), 'CC7.2');
    expect(resolved.status).toBe('SATISFIED');
    expect(resolved.reasons.find((r) => r.rule === 'outcome')).toMatchObject({ code: 'outcome_pass', resolved: 1 });
  });

  it('EU AI Act: evidence older than the max age is stale (PARTIAL); a project cadence can relax it', async () => {
    await add('drift_events', '2026-02-01T00:00:00.000Z', drift('income', false));
    const map = await projectClauseMap(app, { projectId: project, frameworks: ['eu_ai_act'] });
    expect(map.window.as_of).toBe('2026-07-15');
    const article = entry(map, 'Article 15(4)');
    expect(article.status).toBe('PARTIAL');
    expect(article.reasons.find((r) => r.rule === 'cadence')).toMatchObject({ code: 'stale', ok: false, age_days: 164 });
    await setProjectCadence(app, project, 'eu_ai_act', { kind: 'max_age', days: 365 }, 'test');
    expect(entry(await projectClauseMap(app, { projectId: project, frameworks: ['eu_ai_act'] }), 'Article 15(4)').status).toBe('SATISFIED');
  });

  it('records without an outcome field are evidence but not a pass (PARTIAL, outcome_unknown)', async () => {
    const { threshold: _t, passed: _p, ...noOutcome } = examplePayloads.score_records as Record<string, unknown>;
    await add('score_records', '2026-07-01T00:00:00.000Z', noOutcome);
    const article = entry(await projectClauseMap(app, { projectId: project, frameworks: ['eu_ai_act'] }), 'Article 15(3)');
    expect(article.status).toBe('PARTIAL');
    expect(article.reasons).toMatchObject([
      { code: 'outcome_unknown', ok: false },
      { code: 'cadence_met', ok: true },
    ]);
  });

  it('no evidence, or a range without records, is GAP with "no records" on every key', async () => {
    await add('drift_events', '2026-07-01T00:00:00.000Z', drift('income', false));
    for (const q of [{ projectId: 'empty' }, { projectId: project, from: '2025-01-01', to: '2025-12-31' }]) {
      const map = await projectClauseMap(app, { ...q, frameworks: ['soc2', 'eu_ai_act'] });
      expect(map.entries.every((e) => e.status === 'GAP')).toBe(true);
      expect(map.entries.flatMap((e) => e.reasons).every((r) => r.code === 'no_records' && r.message === 'no records in the period')).toBe(
        true,
      );
    }
  });

  it('never changes a record (the rule only reads)', async () => {
    await add('drift_events', '2026-07-01T00:00:00.000Z', drift('income', true));
    const all = () => app.database.all(z.record(z.string(), z.unknown()), 'SELECT * FROM audit_records ORDER BY seq');
    const before = await all();
    await projectClauseMap(app, { projectId: project, frameworks: ['soc2'] });
    expect(await all()).toEqual(before);
  });
});
