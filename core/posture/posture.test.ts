import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { examplePayloads } from '../audit/examples.ts';
import { anchorHead } from '../audit/anchors/store.ts';
import { seedChain } from '../audit/anchors/test-support.ts';
import { appendEvidence } from '../audit/store.ts';
import { schemaKeys } from '../audit/types.ts';
import { verifyChain } from '../audit/verify.ts';
import { projectClauseMap } from '../cec/clauses/index.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import type { Actor } from '../ops/define.ts';
import { invoke } from '../ops/dispatch.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { sampleProjectId } from './sample-data.ts';
import { listSamples } from './sample.ts';

const actor: Actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] };
let app: App;
const call = (name: string, input: unknown) => invoke(name, input, { app, actor });
const callOn = (target: App, name: string, input: unknown = {}) => invoke(name, input, { app: target, actor });
type Overview = Awaited<ReturnType<typeof import('./overview.ts').projectOverview>>;
type OverviewReply = { projects: { project_id: string; is_sample: boolean }[]; overview: Overview | null };

beforeEach(() => {
  app = createApp({ dataDir: ':memory:', env: {}, now: () => new Date('2026-09-18T10:00:00.000Z') });
});
afterEach(() => app.close());

describe('sample project', () => {
  it('imports six months of every key for several models, with passing and failing outcomes and a gap', async () => {
    const info = (await call('posture.loadSample', {})) as { project_id: string; records: number };
    expect(info.project_id).toBe(sampleProjectId);
    const map = await projectClauseMap(app, { projectId: sampleProjectId, frameworks: ['soc2', 'eu_ai_act'] });
    const summary = map.evidence_summary;
    for (const key of schemaKeys) expect(summary[key].count, key).toBeGreaterThan(0);
    expect(Object.keys(summary.score_records.months)).toEqual(['2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09']);
    expect(Object.keys(summary.drift_events.months)).not.toContain('2026-06');
    for (const key of ['score_records', 'drift_events', 'gate_evaluations'] as const) expect(summary[key].failing, key).toBeGreaterThan(0);
    for (const key of ['bias_reports', 'prri_records', 'pii_detections'] as const) {
      expect(summary[key], `${key} failed earlier and passes now`).toMatchObject({ failing: 0, resolved: 1 });
    }
    expect(summary.drift_events.resolved).toBe(1);
    expect(summary.score_records.passing).toBeGreaterThan(0);
    const statuses = new Set(map.entries.map((entry) => entry.status));
    expect([...statuses].sort()).toEqual(['PARTIAL', 'SATISFIED']);
    expect(map.entries.find((e) => e.clause_id === 'CC7.2')?.reasons).toContainEqual(
      expect.objectContaining({ code: 'uncovered', missing_months: ['2026-06'] }),
    );
    // Loading twice does not duplicate it.
    expect(await call('posture.loadSample', {})).toEqual(info);
    const again = await projectClauseMap(app, { projectId: sampleProjectId, frameworks: ['soc2'] });
    expect(again.record_counts).toEqual(map.record_counts);
    expect((await verifyChain(app, sampleProjectId)).valid).toBe(true);
  });

  it('is removed entirely while other chains stay intact; real projects cannot be removed', async () => {
    await appendEvidence(app, [
      { project_id: 'real', schema_key: 'score_records', timestamp: '2026-09-01T00:00:00.000Z', payload: examplePayloads.score_records },
    ]);
    await call('posture.loadSample', {});
    const removed = (await call('posture.removeSample', { project_id: sampleProjectId })) as { removed_records: number };
    expect(removed.removed_records).toBeGreaterThan(100);
    expect(app.db.prepare('SELECT count(*) AS n FROM audit_records WHERE project_id = ?').get(sampleProjectId)).toEqual({ n: 0 });
    expect((await verifyChain(app, 'real')).valid).toBe(true);
    await expect(call('posture.removeSample', { project_id: 'real' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(app.db.prepare('SELECT count(*) AS n FROM audit_records WHERE project_id = ?').get('real')).toEqual({ n: 1 });
    // A real project that happens to use the sample id is never overwritten or mixed.
    await appendEvidence(app, [{ project_id: sampleProjectId, schema_key: 'score_records', payload: examplePayloads.score_records }]);
    await expect(call('posture.loadSample', {})).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(call('posture.removeSample', { project_id: sampleProjectId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('posture.overview', () => {
  it('answers an empty store with no projects and no overview (the screen offers the sample)', async () => {
    expect(await call('posture.overview', {})).toEqual({ projects: [], overview: null });
  });

  it('gives volume per month, heatmap per framework group, chain head, bundles and alerts', async () => {
    await call('posture.loadSample', {});
    await createApiKey(app, { tier: 'api', name: 'ci-pipeline', expires_in_days: 10 });
    const reply = (await call('posture.overview', {})) as OverviewReply;
    expect(reply.projects).toEqual([expect.objectContaining({ project_id: sampleProjectId, is_sample: true })]);
    const overview = reply.overview as Overview;
    expect(overview.is_sample).toBe(true);
    expect(overview.volume).toHaveLength(6);
    expect(overview.volume.reduce((sum, m) => sum + m.counts.score_records, 0)).toBe(overview.record_counts.score_records);
    expect(overview.chain?.head_seq).toBe(Object.values(overview.record_counts).reduce((a, b) => a + b, 0));
    const soc2 = overview.heatmap.filter((cell) => cell.framework === 'soc2');
    expect(soc2.map((cell) => cell.group_id)).toContain('CC7');
    expect(overview.heatmap.find((cell) => cell.framework === 'eu_ai_act' && cell.group_id === 'Article 15')).toMatchObject({
      status: 'PARTIAL',
    });
    const kinds = overview.alerts.map((alert) => alert.kind);
    expect(kinds).toEqual(expect.arrayContaining(['failing_outcome', 'stale_evidence', 'api_key_expiry', 'tsa']));
    expect(overview.alerts.find((a) => a.kind === 'api_key_expiry')?.message).toMatch(/ci-pipeline.*expires in 10 day/);
    expect(overview.alerts.find((a) => a.kind === 'stale_evidence' && a.message.startsWith('SOC 2'))?.message).toMatch(/2026-06/);
  });

  it('a project id without evidence is all GAP, never an error', async () => {
    const reply = (await call('posture.overview', { project_id: 'nobody' })) as OverviewReply;
    expect(reply.overview?.chain).toBeNull();
    expect(reply.overview?.volume).toEqual([]);
    expect(reply.overview?.heatmap.every((cell) => cell.status === 'GAP')).toBe(true);
  });
});

// Posture's own storage (sample registrations) and what the overview reads through app.database, on both back
// ends. The chain's records are seeded through the evidence store (seedChain).
describe.each(testBackends)('posture storage on $name', (backend) => {
  let clock = new Date('2026-09-18T10:00:00.000Z');
  const t = appPerTest(backend, { env: { SVC_ANCHOR_INTERVAL_MINUTES: '10' }, now: () => clock });
  const overviewOf = async (target: App, projectId = 'lagging') =>
    ((await invoke('posture.overview', { project_id: projectId }, { app: target, actor })) as OverviewReply).overview as Overview;
  const count = async (target: App, table: string, projectId: string) =>
    (await target.database.one(z.object({ n: z.number() }), `SELECT count(*) AS n FROM ${table} WHERE project_id = ?`, [projectId]))?.n;

  it('reports the latest anchor, the records after it and how long the oldest waited; alerts past two intervals', async () => {
    const start = clock;
    const { app } = t();
    try {
      await seedChain(app, 'lagging', 2);
      expect((await overviewOf(app)).anchoring).toEqual({
        anchored_seq: null,
        anchored_at: null,
        kind: null,
        lag_records: 2,
        lag_seconds: 0,
      });
      await invoke('audit.anchor', { project_id: 'lagging' }, { app, actor });
      const other = await t().second();
      expect((await overviewOf(other)).anchoring).toMatchObject({ anchored_seq: 2, kind: 'ed25519', lag_records: 0, lag_seconds: 0 });

      await seedChain(app, 'lagging', 3);
      clock = new Date(start.getTime() + 15 * 60_000);
      const within = await overviewOf(app);
      expect(within.chain).toMatchObject({ head_seq: 5 });
      expect(within.anchoring).toMatchObject({ anchored_seq: 2, lag_records: 3, lag_seconds: 900 });
      expect(within.alerts.map((a) => a.kind)).not.toContain('anchor_lag');

      clock = new Date(start.getTime() + 25 * 60_000);
      const late = await overviewOf(other);
      expect(late.anchoring?.lag_seconds).toBe(1500);
      expect(late.alerts.find((a) => a.kind === 'anchor_lag')).toMatchObject({ severity: 'warning', link: '#/evidence' });
      expect(late.alerts.find((a) => a.kind === 'anchor_lag')?.message).toMatch(/3 record\(s\) of lagging .* 25 min \(interval 10 min\)/);
    } finally {
      clock = start;
    }
  });

  it('announces API keys that expire within 30 days, not revoked ones or those further out', async () => {
    const { app } = t();
    const key = (id: string, expiresInDays: number, revoked: string | null) =>
      app.database.run(
        `INSERT INTO api_keys (id, name, tier, display_prefix, secret_hash, created_at, expires_at, revoked_at)
         VALUES (?, ?, 'api', 'svc_x', ?, ?, ?, ?)`,
        [id, id, `hash-${id}`, clock.toISOString(), new Date(clock.getTime() + expiresInDays * 86_400_000).toISOString(), revoked],
      );
    await key('ci-pipeline', 10, null);
    await key('revoked', 5, clock.toISOString());
    await key('later', 45, null);
    const alerts = (await overviewOf(await t().second(), 'nobody')).alerts.filter((a) => a.kind === 'api_key_expiry');
    expect(alerts.map((a) => a.message)).toEqual(['API key "ci-pipeline" expires in 10 day(s)']);
  });

  it('removes a registered sample whole (records, head, anchors, cadences) and nothing of a real project', async () => {
    const { app } = t();
    await seedChain(app, sampleProjectId, 4);
    await seedChain(app, 'real', 2);
    await anchorHead(app, sampleProjectId);
    await anchorHead(app, 'real');
    await app.database.run('INSERT INTO posture_samples (project_id, created_at, records) VALUES (?, ?, ?)', [
      sampleProjectId,
      clock.toISOString(),
      4,
    ]);
    await app.database.run(
      "INSERT INTO clause_cadences (project_id, framework, cadence, updated_at, updated_by) VALUES (?, 'soc2', 'monthly', ?, 'test')",
      [sampleProjectId, clock.toISOString()],
    );
    const other = await t().second();
    expect(await listSamples(other)).toEqual([{ project_id: sampleProjectId, records: 4, created_at: clock.toISOString() }]);
    // Registered already: loading again answers with it and adds nothing.
    expect(await callOn(other, 'posture.loadSample')).toEqual({ project_id: sampleProjectId, records: 4, created_at: clock.toISOString() });

    await expect(callOn(other, 'posture.removeSample', { project_id: 'real' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await callOn(other, 'posture.removeSample', { project_id: sampleProjectId })).toEqual({
      project_id: sampleProjectId,
      removed_records: 4,
    });
    for (const table of ['audit_records', 'audit_chain_heads', 'audit_anchors', 'clause_cadences', 'posture_samples']) {
      expect(await count(app, table, sampleProjectId), table).toBe(0);
    }
    expect([await count(app, 'audit_records', 'real'), await count(app, 'audit_anchors', 'real')]).toEqual([2, 1]);
    await expect(callOn(app, 'posture.removeSample', { project_id: sampleProjectId })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses to load the sample over a project id that already holds real evidence', async () => {
    const { app } = t();
    await seedChain(app, sampleProjectId, 1);
    await expect(callOn(app, 'posture.loadSample')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await listSamples(app)).toEqual([]);
  });
});

describe.each(testBackends)('the overview with periodic anchoring off on $name', (backend) => {
  const t = appPerTest(backend, { env: { SVC_ANCHOR_INTERVAL_MINUTES: '0' } });
  it('says so when records wait for an anchor', async () => {
    const { app } = t();
    await seedChain(app, 'lagging', 1);
    const reply = (await callOn(app, 'posture.overview', { project_id: 'lagging' })) as OverviewReply;
    const alert = reply.overview?.alerts.find((a) => a.kind === 'anchor_lag');
    expect(alert).toMatchObject({ severity: 'info' });
    expect(alert?.message).toMatch(/periodic anchoring is off/);
  });
});
