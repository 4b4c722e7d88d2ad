import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { examplePayloads } from '../../audit/examples.ts';
import { appendEvidence } from '../../audit/store.ts';
import type { SchemaKey } from '../../audit/types.ts';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import type { Actor } from '../../ops/define.ts';
import { invoke } from '../../ops/dispatch.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';

const actor: Actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] };

const add = (app: App, projectId: string, key: SchemaKey, day: string, n = 1) =>
  appendEvidence(
    app,
    Array.from({ length: n }, (_, i) => ({
      project_id: projectId,
      schema_key: key,
      timestamp: `${day}T10:00:0${i}.000Z`,
      payload: examplePayloads[key],
    })),
  );

type ClauseMapResult = {
  counts: Record<SchemaKey, number>;
  summary: { framework: string; SATISFIED: number; PARTIAL: number; GAP: number; clauses: number }[];
  entries: {
    framework: string;
    clause_id: string;
    status: string;
    evidence_count: number;
    reasons: { schema_key: string; code: string; ok: boolean }[];
  }[];
  rule_version: string;
  as_of: string;
};

describe('frameworks ops', () => {
  let app: App;
  const call = (name: string, input: unknown) => invoke(name, input, { app, actor });

  beforeAll(async () => {
    app = createApp({ dataDir: ':memory:', env: {}, now: () => new Date('2026-03-15T00:00:00.000Z') });
    await add(app, 'credit', 'score_records', '2026-01-10', 3);
    await add(app, 'credit', 'drift_events', '2026-01-11', 2);
    await add(app, 'credit', 'gate_evaluations', '2026-03-01');
    await add(app, 'other', 'bias_reports', '2026-01-10');
  });
  afterAll(() => app.close());

  it('lists the five frameworks with clause counts', async () => {
    const { frameworks } = (await call('frameworks.list', {})) as {
      frameworks: { id: string; name: string; clause_count: number; mapped_count: number; excluded_count: number }[];
    };
    expect(frameworks.map((f) => f.id)).toEqual(['eu_ai_act', 'iso_42001', 'nist_ai_rmf', 'iso27001', 'soc2']);
    const eu = frameworks[0];
    expect(eu).toMatchObject({ name: 'EU AI Act', clause_count: 38 });
    expect((eu?.mapped_count ?? 0) + (eu?.excluded_count ?? 0)).toBe(38);
  });

  it("returns a framework's clauses, mapped and excluded, by display name or alias", async () => {
    const result = (await call('frameworks.clauses', { framework: 'SOC2' })) as {
      framework: string;
      clauses: { clause_id: string; mappings: unknown[]; exclusion: string | null; source: string }[];
    };
    expect(result.framework).toBe('soc2');
    expect(result.clauses).toHaveLength(81);
    const cc72 = result.clauses.find((c) => c.clause_id === 'CC7.2');
    expect(cc72?.mappings).toHaveLength(1);
    expect(cc72?.source).toContain('CC7.2');
    expect(result.clauses.find((c) => c.clause_id === 'CC6.4')?.exclusion).toMatch(/access/i);
  });

  it("computes a project's clause map from the store for a date range", async () => {
    const all = (await call('frameworks.clauseMap', { project_id: 'credit', frameworks: ['EU AI Act'] })) as ClauseMapResult;
    expect(all.counts).toMatchObject({ score_records: 3, drift_events: 2, gate_evaluations: 1, bias_reports: 0 });
    expect(all).toMatchObject({ rule_version: 'posture/1', as_of: '2026-03-15' });
    // The example drift event is a detected drift: the clause has its evidence but the outcome fails.
    const article15 = all.entries.find((e) => e.clause_id === 'Article 15(1)');
    expect(article15).toMatchObject({ status: 'PARTIAL', evidence_count: 6 });
    expect(article15?.reasons.filter((r) => !r.ok)).toMatchObject([{ schema_key: 'drift_events', code: 'outcome_fail' }]);
    expect(all.entries.find((e) => e.clause_id === 'Article 15(3)')).toMatchObject({ status: 'SATISFIED' });

    const january = (await call('frameworks.clauseMap', {
      project_id: 'credit',
      from: '2026-01-01',
      to: '2026-01-31',
      frameworks: ['eu_ai_act'],
    })) as ClauseMapResult;
    expect(january.counts.gate_evaluations).toBe(0);
    expect(january.entries.find((e) => e.clause_id === 'Article 14(1)')).toMatchObject({ status: 'GAP', evidence_count: 0 });
    expect(january.entries.find((e) => e.clause_id === 'Article 15(1)')).toMatchObject({ status: 'PARTIAL', evidence_count: 5 });
    expect(january.entries.find((e) => e.clause_id === 'Article 15(3)')).toMatchObject({ status: 'SATISFIED', evidence_count: 3 });
    expect(january.entries.find((e) => e.clause_id === 'Article 9(8)')).toMatchObject({ status: 'PARTIAL', evidence_count: 3 });
    const summary = january.summary[0];
    expect(summary?.framework).toBe('eu_ai_act');
    expect((summary?.SATISFIED ?? 0) + (summary?.PARTIAL ?? 0) + (summary?.GAP ?? 0)).toBe(summary?.clauses);
  });

  it('defaults to all five frameworks', async () => {
    const result = (await call('frameworks.clauseMap', { project_id: 'credit' })) as ClauseMapResult;
    expect(result.summary.map((s) => s.framework)).toEqual(['eu_ai_act', 'iso_42001', 'nist_ai_rmf', 'iso27001', 'soc2']);
  });

  it('rejects unknown frameworks, bad dates and a reversed range with VALIDATION', async () => {
    await expect(call('frameworks.clauseMap', { project_id: 'credit', frameworks: ['gdpr'] })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('accepted: eu_ai_act (EU AI Act)'),
    });
    await expect(call('frameworks.clauseMap', { project_id: 'credit', from: '2026-13' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(call('frameworks.clauseMap', { project_id: 'credit', from: '2026-02-01', to: '2026-01-01' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'from must not be after to',
    });
  });
});

describe('frameworks over HTTP', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(() => server.close());

  it("serves a framework's clauses at its REST path by id or display name", async () => {
    const reply = await server.server.inject({
      method: 'GET',
      url: `/v1/frameworks/${encodeURIComponent('ISO/IEC 27001 (Annex A)')}/clauses`,
      headers: server.auth(await server.newKey('free')),
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ framework: 'iso27001', name: 'ISO/IEC 27001 (Annex A)' });
  });

  it('answers an unknown framework with 422 and a detail naming the accepted values', async () => {
    const reply = await server.server.inject({ method: 'GET', url: '/v1/frameworks/hipaa/clauses', headers: server.auth() });
    expect(reply.statusCode).toBe(422);
    expect(reply.json().detail).toMatch(/^Unknown framework "hipaa"; accepted: eu_ai_act \(EU AI Act\)/);
  });

  it('serves the clause map through the ops route', async () => {
    const reply = await server.server.inject({
      method: 'POST',
      url: '/api/ops/frameworks.clauseMap',
      headers: server.auth(),
      payload: { project_id: 'empty', frameworks: ['soc2'] },
    });
    expect(reply.statusCode).toBe(200);
    const body = reply.json() as { ok: boolean; value: ClauseMapResult };
    expect(body.ok).toBe(true);
    expect(body.value.entries.every((e) => e.status === 'GAP')).toBe(true);
  });
});

describe.each(testBackends)('cadence ops on $name', (backend) => {
  const t = appPerTest(backend);
  const call = (name: string, input: unknown) => invoke(name, input, { app: t().app, actor });

  it("stores a project's cadence per framework and restores the default with null", async () => {
    type Cadences = { cadences: { framework: string; source: string; cadence: { kind: string; days?: number } }[] };
    const before = (await call('frameworks.cadences', { project_id: 'credit' })) as Cadences;
    expect(before.cadences.find((c) => c.framework === 'soc2')).toMatchObject({ source: 'default', cadence: { kind: 'monthly' } });
    await call('frameworks.setCadence', { project_id: 'credit', framework: 'SOC 2', cadence: { kind: 'max_age', days: 30 } });
    // Another instance reads the same row.
    const after = (await invoke('frameworks.cadences', { project_id: 'credit' }, { app: await t().second(), actor })) as Cadences;
    expect(after.cadences.find((c) => c.framework === 'soc2')).toMatchObject({ source: 'project', cadence: { kind: 'max_age', days: 30 } });
    await expect(
      call('frameworks.setCadence', { project_id: 'credit', framework: 'soc2', cadence: { kind: 'max_age', days: 0 } }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await call('frameworks.setCadence', { project_id: 'credit', framework: 'soc2', cadence: null });
    const reset = (await call('frameworks.cadences', { project_id: 'credit' })) as Cadences;
    expect(reset.cadences.find((c) => c.framework === 'soc2')?.source).toBe('default');
  });
});
