import { describe, expect, it } from 'vitest';
import { evidenceRows } from '../../audit/store.ts';
import { invoke } from '../../ops/dispatch.ts';
import { testBackends } from '../../test-support/backends.ts';
import { bundleAppPerTest, seedDays } from '../test-support.ts';
import { projectClauseMap } from './clause-map.ts';
import { clauseMapForBuild } from './clause-map-thread.ts';

const query = () => ({ projectId: 'proj', from: '2026-03-01', to: '2026-03-20', frameworks: ['eu_ai_act', 'iso_42001'] as const });
const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;

describe.each(testBackends)('clause map off the calling thread on $name', (backend) => {
  const t = bundleAppPerTest(backend);

  it('a worker on its own connection gives the clause map this thread computes', async () => {
    const { app } = t();
    await seedDays(app, 'proj', ['2026-03-01', '2026-03-05', '2026-03-09', '2026-04-01'], 3);
    await seedDays(app, 'other', ['2026-03-02'], 2);
    // Stored through the app: the worker can only see it on the same storage.
    await invoke(
      'frameworks.setCadence',
      { project_id: 'proj', framework: 'iso_42001', cadence: { kind: 'max_age', days: 33 } },
      { app, actor },
    );
    const q = { ...query(), frameworks: [...query().frameworks] };
    const here = await projectClauseMap(app, q);
    const there = await clauseMapForBuild(app, q, app.now(), 36, 0).result();
    expect(there).toEqual(here);
    expect(there.record_counts.score_records).toBe(9);
    expect(there.cadences.iso_42001).toEqual({ kind: 'max_age', days: 33 });
  }, 60_000);

  it('small projects are tallied from the rows the pass reads, to the clause map SQL gives', async () => {
    const { app } = t();
    await seedDays(app, 'proj', ['2026-03-01', '2026-03-05', '2026-04-01'], 2);
    const q = { ...query(), frameworks: [...query().frameworks] };
    const small = clauseMapForBuild(app, q, app.now(), 36);
    const tally = small.tally;
    if (tally === null) throw new Error('expected a tally below the worker threshold');
    for await (const row of evidenceRows(app.database, q)) tally.add(row);
    const tallied = await small.result();
    expect(tallied).toEqual(await projectClauseMap(app, q));
    expect(tallied.record_counts.score_records).toBe(4);
  });

  it('a worker that cannot open the store rejects with the reason (the build fails instead of hanging)', async () => {
    const { app, dir } = t();
    const broken: typeof app = Object.create(app, { dataDir: { value: `${dir}/missing/\u0000` } });
    const background = clauseMapForBuild(broken, { ...query(), frameworks: [...query().frameworks] }, app.now(), 36, 0);
    await expect(background.result()).rejects.toThrow(/clause map/);
  }, 60_000);
});

describe.each(testBackends.filter((backend) => backend.name === 'sqlite'))('clause map on a database its env does not name', (backend) => {
  const t = bundleAppPerTest(backend);
  it('is computed on this thread, never against another store', async () => {
    const { app } = t();
    await seedDays(app, 'proj', ['2026-03-01'], 1);
    const foreign: typeof app = Object.create(app, {
      env: { value: { ...app.env, SVC_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } },
    });
    const q = { ...query(), frameworks: [...query().frameworks] };
    const build = clauseMapForBuild(foreign, q, app.now(), 36, 0);
    const tally = build.tally;
    if (tally === null) throw new Error('a worker was started against another store');
    for await (const row of evidenceRows(app.database, q)) tally.add(row);
    expect((await build.result()).record_counts.score_records).toBe(1);
  });
});
