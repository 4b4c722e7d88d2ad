import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidence } from './store.ts';
import { verifyChain } from './verify.ts';

let app: App;
afterEach(() => app?.close());
const seeded = (n: number): App => {
  app = createApp({ dataDir: ':memory:', env: {} });
  appendEvidence(
    app,
    Array.from({ length: n }, (_, i) => exampleEvidence(i, 'proj')),
  );
  appendEvidence(app, [exampleEvidence(0, 'neighbour')]);
  return app;
};
const sql = (text: string, ...params: unknown[]) => app.db.prepare(text).run(...params);

describe('verifyChain', () => {
  it('accepts an untouched chain and reports progress', async () => {
    seeded(4100);
    const seen: number[] = [];
    const result = await verifyChain(app, 'proj', (done) => seen.push(done));
    expect(result).toMatchObject({ valid: true, checked: 4100, head_seq: 4100, first_broken_seq: null, reason: null });
    expect(seen.at(-1)).toBe(4100);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('finds a payload changed directly in SQLite', async () => {
    seeded(50);
    sql(`UPDATE audit_records SET payload = json_set(payload, '$.value', 0.99) WHERE project_id = 'proj' AND seq = 17`);
    const result = await verifyChain(app, 'proj');
    expect(result).toMatchObject({ valid: false, first_broken_seq: 17, checked: 16 });
    expect(result.reason).toMatch(/hash does not match/);
    expect((await verifyChain(app, 'neighbour')).valid).toBe(true);
  });

  it('finds a rewritten hash through the next link, and a changed event time', async () => {
    seeded(20);
    sql(`UPDATE audit_records SET hash = ? WHERE project_id = 'proj' AND seq = 5`, 'a'.repeat(64));
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 5 });
    app.close();
    seeded(20);
    sql(`UPDATE audit_records SET timestamp = '2020-01-01T00:00:00.000Z' WHERE project_id = 'proj' AND seq = 9`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 9 });
  });

  it('finds a deleted record and a truncated tail', async () => {
    seeded(20);
    sql(`DELETE FROM audit_records WHERE project_id = 'proj' AND seq = 12`);
    const gap = await verifyChain(app, 'proj');
    expect(gap).toMatchObject({ valid: false, first_broken_seq: 12 });
    expect(gap.reason).toMatch(/missing/);
    app.close();
    seeded(20);
    sql(`DELETE FROM audit_records WHERE project_id = 'proj' AND seq = 20`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 20 });
  });

  it('accepts a payload re-serialised with the same JSON value (the hash covers JCS, not bytes)', async () => {
    seeded(3);
    const row = app.db.prepare(`SELECT payload FROM audit_records WHERE project_id = 'proj' AND seq = 2`).get() as { payload: string };
    sql(`UPDATE audit_records SET payload = ? WHERE project_id = 'proj' AND seq = 2`, JSON.stringify(JSON.parse(row.payload), null, 2));
    expect((await verifyChain(app, 'proj')).valid).toBe(true);
    sql(`UPDATE audit_records SET payload = '{not json' WHERE project_id = 'proj' AND seq = 2`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 2, reason: 'payload is not valid JSON' });
  });

  it('is NOT_FOUND for a project without evidence', async () => {
    seeded(1);
    await expect(verifyChain(app, 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
