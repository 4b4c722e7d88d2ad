import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { App } from '../app.ts';
import type { SqlValue } from '../store/database.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { exampleEvidence } from './examples.ts';
import { appendEvidence } from './store.ts';
import { verifyChain } from './verify.ts';

describe.each(testBackends)('verifyChain on $name', (backend) => {
  const t = appPerTest(backend);
  let app: App;
  /** The test's app, emptied, with `n` records in 'proj' and one in 'neighbour'. */
  const seeded = async (n: number): Promise<void> => {
    app = t().app;
    await app.database.exec('DELETE FROM audit_records; DELETE FROM audit_chain_heads');
    await appendEvidence(
      app,
      Array.from({ length: n }, (_, i) => exampleEvidence(i, 'proj')),
    );
    await appendEvidence(app, [exampleEvidence(0, 'neighbour')]);
  };
  const sql = (text: string, ...params: SqlValue[]) => app.database.run(text, params);
  // The tampering is done with SQL each back end understands (json_set is SQLite's; PostgreSQL casts to jsonb).
  const setValue = (seq: number) =>
    backend.name === 'sqlite'
      ? sql(`UPDATE audit_records SET payload = json_set(payload, '$.value', 0.99) WHERE project_id = 'proj' AND seq = ?`, seq)
      : sql(
          `UPDATE audit_records SET payload = jsonb_set(payload::jsonb, '{value}', '0.99')::text WHERE project_id = 'proj' AND seq = ?`,
          seq,
        );

  it('accepts an untouched chain and reports progress', async () => {
    await seeded(4100);
    const seen: number[] = [];
    const result = await verifyChain(app, 'proj', (done) => seen.push(done));
    expect(result).toMatchObject({ valid: true, checked: 4100, head_seq: 4100, first_broken_seq: null, reason: null });
    expect(seen.at(-1)).toBe(4100);
    expect(seen.length).toBeGreaterThan(1);
  });

  it('finds a payload changed directly in the database', async () => {
    await seeded(50);
    await setValue(17);
    const result = await verifyChain(app, 'proj');
    expect(result).toMatchObject({ valid: false, first_broken_seq: 17, checked: 16 });
    expect(result.reason).toMatch(/hash does not match/);
    expect((await verifyChain(app, 'neighbour')).valid).toBe(true);
  });

  it('finds a rewritten hash through the next link, and a changed event time', async () => {
    await seeded(20);
    await sql(`UPDATE audit_records SET hash = ? WHERE project_id = 'proj' AND seq = 5`, 'a'.repeat(64));
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 5 });
    await seeded(20);
    await sql(`UPDATE audit_records SET timestamp = '2020-01-01T00:00:00.000Z' WHERE project_id = 'proj' AND seq = 9`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 9 });
  });

  it('finds a deleted record and a truncated tail', async () => {
    await seeded(20);
    await sql(`DELETE FROM audit_records WHERE project_id = 'proj' AND seq = 12`);
    const gap = await verifyChain(app, 'proj');
    expect(gap).toMatchObject({ valid: false, first_broken_seq: 12 });
    expect(gap.reason).toMatch(/missing/);
    await seeded(20);
    await sql(`DELETE FROM audit_records WHERE project_id = 'proj' AND seq = 20`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 20 });
  });

  it('accepts a payload re-serialised with the same JSON value (the hash covers JCS, not bytes)', async () => {
    await seeded(3);
    const row = await app.database.one(
      z.object({ payload: z.string() }),
      `SELECT payload FROM audit_records WHERE project_id = 'proj' AND seq = 2`,
    );
    if (row === undefined) throw new Error('seeded row missing');
    await sql(
      `UPDATE audit_records SET payload = ? WHERE project_id = 'proj' AND seq = 2`,
      JSON.stringify(JSON.parse(row.payload), null, 2),
    );
    expect((await verifyChain(app, 'proj')).valid).toBe(true);
    await sql(`UPDATE audit_records SET payload = '{not json' WHERE project_id = 'proj' AND seq = 2`);
    expect(await verifyChain(app, 'proj')).toMatchObject({ valid: false, first_broken_seq: 2, reason: 'payload is not valid JSON' });
  });

  it('is NOT_FOUND for a project without evidence', async () => {
    await seeded(1);
    await expect(verifyChain(app, 'nobody')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
