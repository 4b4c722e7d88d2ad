import { describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { exampleEvidence } from './examples.ts';
import { listProjects, queryEvidence } from './query.ts';
import { appendEvidence } from './store.ts';

describe.each(testBackends)('queryEvidence on $name', (backend) => {
  const t = appPerTest(backend);
  let app: App;
  const seeded = async (): Promise<void> => {
    app = t().app;
    // 120 records, one a minute from 2026-01-01T00:00Z; then 2 in another project.
    await appendEvidence(
      app,
      Array.from({ length: 120 }, (_, i) => exampleEvidence(i, 'alpha')),
    );
    await appendEvidence(app, [exampleEvidence(0, 'beta'), exampleEvidence(1, 'beta')]);
  };

  it('pages with a cursor until next_cursor is null', async () => {
    await seeded();
    const seqs: number[] = [];
    let cursor: number | undefined;
    for (let guard = 0; guard < 10; guard++) {
      const page = await queryEvidence(app, { projectId: 'alpha', limit: 50, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.total).toBe(120);
      seqs.push(...page.records.map((r) => r.seq));
      if (page.next_cursor === null) break;
      cursor = page.next_cursor;
    }
    expect(seqs).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  });

  it('pages by number, with filters and totals', async () => {
    await seeded();
    const third = await queryEvidence(app, { projectId: 'alpha', limit: 50, page: 3 });
    expect(third.records.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 101 + i));
    expect(third).toMatchObject({ page: 3, next_cursor: null, total: 120 });
    const gates = await queryEvidence(app, { projectId: 'alpha', limit: 5, schemaKey: 'gate_evaluations' });
    expect(gates.total).toBe(20);
    expect(gates.records.map((r) => r.seq)).toEqual([6, 12, 18, 24, 30]);
    expect(gates.next_cursor).toBe(30);
    expect((await queryEvidence(app, { projectId: 'alpha', limit: 5, from: '2026-01-02' })).total).toBe(0);
    expect((await queryEvidence(app, { projectId: 'alpha', limit: 5, from: '2026-01-01', to: '2026-01-01' })).total).toBe(120);
    expect(await queryEvidence(app, { projectId: 'nobody', limit: 5 })).toMatchObject({ total: 0, records: [] });
  });

  it('lists projects with counts and chain heads', async () => {
    await seeded();
    const projects = await listProjects(app);
    expect(projects.map((p) => [p.project_id, p.record_count, p.head_seq])).toEqual([
      ['alpha', 120, 120],
      ['beta', 2, 2],
    ]);
    expect(projects[1]?.counts).toMatchObject({ score_records: 1, bias_reports: 1, gate_evaluations: 0 });
    expect(projects[0]?.head_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});
