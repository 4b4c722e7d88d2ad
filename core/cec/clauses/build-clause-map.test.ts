import { describe, expect, it } from 'vitest';
import { appendEvidence } from '../../audit/store.ts';
import { invoke } from '../../ops/dispatch.ts';
import { testBackends } from '../../test-support/backends.ts';
import { bundleAppPerTest, samplePayloads, seedDays } from '../test-support.ts';
import { clauseMapForBuild } from './build-clause-map.ts';
import { projectClauseMap } from './clause-map.ts';
import { talliedRows } from './tally.test-support.ts';

const query = () => ({ projectId: 'proj', from: '2026-03-01', to: '2026-03-20', frameworks: ['eu_ai_act', 'iso_42001'] as const });
const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;

describe.each(testBackends)("a build's clause map on $name", (backend) => {
  const t = bundleAppPerTest(backend);

  it('is tallied from the rows the pass reads, to the clause map SQL gives (with the stored cadences)', async () => {
    const { app } = t();
    await seedDays(app, 'proj', ['2026-03-01', '2026-03-05', '2026-03-09', '2026-04-01'], 3);
    await seedDays(app, 'other', ['2026-03-02'], 2);
    await invoke(
      'frameworks.setCadence',
      { project_id: 'proj', framework: 'iso_42001', cadence: { kind: 'max_age', days: 33 } },
      { app, actor },
    );
    const q = { ...query(), frameworks: [...query().frameworks] };
    const build = clauseMapForBuild(app, q);
    for await (const row of talliedRows(app.database, q)) build.tally.add(row);
    const tallied = await build.result();
    expect(tallied).toEqual(await projectClauseMap(app, q));
    expect(tallied.record_counts.score_records).toBe(9);
    expect(tallied.cadences.iso_42001).toEqual({ kind: 'max_age', days: 33 });
  });

  it('falls back to SQL on this thread where the tally cannot vouch for a value', async () => {
    const { app } = t();
    await seedDays(app, 'proj', ['2026-03-01'], 1);
    // A series naming a character outside the BMP: SQL orders it by code point, JavaScript by UTF-16 unit, so
    // the tally gives up rather than risk another order.
    await appendEvidence(app, [
      {
        project_id: 'proj',
        schema_key: 'score_records',
        timestamp: '2026-03-02T00:00:00.000Z',
        payload: { ...samplePayloads.score_records, model_id: 'model-\u{1F600}' },
      },
    ]);
    const q = { ...query(), frameworks: [...query().frameworks] };
    const build = clauseMapForBuild(app, q);
    for await (const row of talliedRows(app.database, q)) build.tally.add(row);
    expect(build.tally.result()).toBeNull();
    const fallback = await build.result();
    expect(fallback).toEqual(await projectClauseMap(app, q));
    expect(fallback.record_counts.score_records).toBe(2);
  });
});
