import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { examplePayloads } from '../../audit/examples.ts';
import { appendEvidence } from '../../audit/store.ts';
import type { EvidenceRow } from '../../audit/evidence-rows.ts';
import type { SchemaKey } from '../../audit/types.ts';
import type { App } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { assessEvidence } from './assess.ts';
import { clauseMapOf, projectClauseMap } from './clause-map.ts';
import { EvidenceTally, type TalliedRow } from './evidence-tally.ts';
import { talliedRows } from './tally.test-support.ts';

/** Payload changes that reach every case of every outcome rule (pass, fail, no outcome, the special cases). */
const variants: Record<SchemaKey, readonly Record<string, unknown>[]> = {
  score_records: [
    { passed: true },
    { passed: false },
    { passed: undefined, threshold: 0.9, value: 0.95 },
    { passed: undefined, threshold: 0.9, value: 0.9 },
    { passed: undefined, threshold: 0.9, value: 0.85 },
    { passed: undefined, threshold: 0.1, value: 0.05, higher_is_better: false },
    { passed: undefined, threshold: 0.1, value: 0.15, higher_is_better: false },
    { passed: undefined, threshold: undefined },
  ],
  bias_reports: [{ passed: true }, { passed: false }],
  prri_records: [{ level: 'low' }, { level: 'critical' }, { level: 'high', accepted_by: 'CRO' }],
  drift_events: [{ detected: false }, { detected: true }],
  pii_detections: [
    { entity_counts: {}, total_findings: 0, redacted: false },
    { redacted: true },
    { redacted: false },
    { redacted: false, labels: { action: 'block' } },
    { redacted: undefined },
  ],
  gate_evaluations: [
    { decision: 'pass' },
    { decision: 'override', approver: 'cto', reason: 'accepted' },
    { decision: 'fail' },
    { decision: 'warn' },
    { decision: 'warn', approver: 'cto' },
  ],
};
const keys = Object.keys(variants) as SchemaKey[];

/** A payload of `key` in variant `variant`, about subject `subject` (each series field names it). */
const payloadOf = (key: SchemaKey, variant: number, subject: string): Record<string, unknown> => {
  const change = variants[key][variant % variants[key].length] as Record<string, unknown>;
  const payload: Record<string, unknown> = { ...examplePayloads[key], ...change };
  for (const name of ['model_id', 'source', 'gate']) if (name in payload) payload[name] = `${name}-${subject}`;
  for (const [name, value] of Object.entries(change)) if (value === undefined) delete payload[name];
  return payload;
};

const tallied = async (app: App, q: { projectId: string; from?: string; to?: string }): Promise<EvidenceTally> => {
  const tally = new EvidenceTally();
  for await (const row of talliedRows(app.database, q)) tally.add(row);
  return tally;
};

/** The rows tallied in two parts split at `cut`, the upper part merged as a worker's reply brings it (cloned). */
const talliedInTwo = async (app: App, q: { projectId: string; from?: string; to?: string }, cut: number): Promise<EvidenceTally> => {
  const lower = new EvidenceTally();
  const upper = new EvidenceTally();
  let i = 0;
  for await (const row of talliedRows(app.database, q)) (i++ < cut ? lower : upper).add(row);
  lower.merge(structuredClone(upper.state()));
  return lower;
};

const range = { from: '2026-02-01', to: '2026-05-31' };

describe.each(testBackends)('the clause map tallied in a build pass on $name', (backend) => {
  const t = appPerTest(backend, { now: () => new Date('2026-07-15T12:00:00.000Z') });

  it('gives the assessment and clause map SQL gives: every rule case, several series and months, a range', async () => {
    const { app } = t();
    const inputs = keys.flatMap((key, k) =>
      variants[key].flatMap((_, variant) =>
        ['a', 'b', 'c'].map((subject, s) => ({
          project_id: 'proj',
          schema_key: key,
          // January and June fall outside the range; equal times in a series leave the higher seq latest.
          timestamp: `2026-0${1 + ((variant + s + k) % 6)}-${String(1 + ((variant * 7 + s) % 28)).padStart(2, '0')}T00:00:00.000Z`,
          payload: payloadOf(key, variant, subject),
        })),
      ),
    );
    await appendEvidence(app, inputs);
    const q = { projectId: 'proj', ...range, frameworks: ['eu_ai_act', 'iso_42001', 'nist_ai_rmf', 'iso27001', 'soc2'] as const };
    const query = { ...q, frameworks: [...q.frameworks] };
    const assessment = (await tallied(app, q)).result();
    expect(assessment).toEqual(await assessEvidence(app, q));
    if (assessment === null) throw new Error('the tally deferred to SQL');
    for (const cut of [1, 20, 45]) expect((await talliedInTwo(app, q, cut)).result()).toEqual(assessment);
    expect(await clauseMapOf(app, query, assessment)).toEqual(await projectClauseMap(app, query));
    // The data reaches what it is meant to: failures, records without outcome, several months.
    expect(assessment.score_records.failing).toBeGreaterThan(0);
    expect(assessment.pii_detections.unknown).toBeGreaterThan(0);
    expect(Object.keys(assessment.gate_evaluations.months).length).toBeGreaterThan(1);
  });
});

describe.each(testBackends.filter((backend) => backend.name === 'sqlite'))('the tally against SQLite, any records', (backend) => {
  const t = appPerTest(backend);

  it('agrees with assessEvidence for any sequence of records, whole or tallied in two parts and merged, including more failing series than it samples (property)', async () => {
    const { app } = t();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            key: fc.constantFrom(...keys),
            variant: fc.nat(7),
            subject: fc.integer({ min: 0, max: 14 }),
            month: fc.integer({ min: 1, max: 7 }),
            day: fc.integer({ min: 1, max: 3 }),
          }),
          { minLength: 1, maxLength: 80 },
        ),
        fc.nat(80),
        async (records, cut) => {
          run += 1;
          const projectId = `p${run}`;
          await appendEvidence(
            app,
            records.map((record) => ({
              project_id: projectId,
              schema_key: record.key,
              timestamp: `2026-0${record.month}-0${record.day}T00:00:00.000Z`,
              payload: payloadOf(record.key, record.variant, `s${record.subject}`),
            })),
          );
          const q = { projectId, ...range };
          const sql = await assessEvidence(app, q);
          expect((await tallied(app, q)).result()).toEqual(sql);
          // Split between two threads (a split build pass) and merged, the same.
          expect((await talliedInTwo(app, q, cut)).result()).toEqual(sql);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);

  it('takes the higher seq as latest between records of a series at the same time', async () => {
    const { app } = t();
    const at = '2026-03-01T00:00:00.000Z';
    const drift = (subject: string, variant: number) => ({
      project_id: 'ties',
      schema_key: 'drift_events' as const,
      timestamp: at,
      payload: payloadOf('drift_events', variant, subject),
    });
    await appendEvidence(app, [drift('a', 1), drift('a', 0), drift('b', 0), drift('b', 1)]);
    const q = { projectId: 'ties', ...range };
    const assessment = (await tallied(app, q)).result();
    expect(assessment?.drift_events).toMatchObject({ series: 2, failing: 1, passing: 1, resolved: 1 });
    expect(assessment).toEqual(await assessEvidence(app, q));
  });

  it('samples the same ten of fifteen failing series as GROUP BY does', async () => {
    const { app } = t();
    const subjects = Array.from({ length: 15 }, (_, i) => `m${(i * 7) % 15}`);
    await appendEvidence(
      app,
      subjects.map((subject, i) => ({
        project_id: 'many',
        schema_key: 'drift_events' as const,
        timestamp: `2026-03-${String(20 - i).padStart(2, '0')}T00:00:00.000Z`,
        payload: payloadOf('drift_events', 1, subject),
      })),
    );
    const q = { projectId: 'many', ...range };
    const assessment = (await tallied(app, q)).result();
    expect(assessment?.drift_events.failing).toBe(15);
    expect(assessment?.drift_events.failing_records).toHaveLength(10);
    expect(assessment).toEqual(await assessEvidence(app, q));
  });
});

describe.each(testBackends)('the tally reads each payload as the SQL aggregation does on $name', (backend) => {
  const t = appPerTest(backend);

  /** A stored row the ingest would refuse (a hand-edited store): only SQL's reading of it counts. */
  const storeRaw = async (app: App, seq: number, payload: string): Promise<void> => {
    await app.database.run(
      `INSERT INTO audit_records (project_id, seq, record_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash)
       VALUES ('raw', ?, ?, 'drift_events', ?, ?, ?, ?, ?)`,
      [seq, `r${seq}`, `2026-03-0${seq}T00:00:00.000Z`, '2026-03-01T00:00:00.000Z', payload, '0'.repeat(64), '1'.repeat(64)],
    );
  };

  it('agrees with SQL on payloads a JSON.parse reading could take differently', async () => {
    const { app } = t();
    const payloads = [
      '{"detected":false,"feature":"f","model_id":5}',
      '{"detected":"no","feature":"f","model_id":"m"}',
      '{"detected":0.30000000000000004,"feature":"g","model_id":"m"}',
      '{"detected":true,"feature":"f","feature":"h","model_id":"m"}',
      '[1,2]',
    ];
    for (const [i, payload] of payloads.entries()) await storeRaw(app, i + 1, payload);
    const q = { projectId: 'raw', ...range };
    const assessment = (await tallied(app, q)).result();
    expect(assessment).not.toBeNull();
    expect(assessment).toEqual(await assessEvidence(app, q));
    expect(assessment?.drift_events.count).toBe(payloads.length);
  });

  it.each([
    ['JSON5 (SQLite reads it, PostgreSQL does not)', '{detected: false, feature: "f", model_id: "m"}'],
    ['cut short', '{"detected":false,"feature":"f"'],
  ])('reads a payload that is not JSON as SQL does, or fails as it fails: %s', async (_, payload) => {
    const { app } = t();
    await storeRaw(app, 1, payload);
    const q = { projectId: 'raw', ...range };
    const settle = <T>(work: Promise<T>) =>
      work.then(
        (value) => ({ value }),
        () => ({ failed: true }),
      );
    const sql = await settle(assessEvidence(app, q));
    const tally = await settle(tallied(app, q).then((tallied) => tallied.result()));
    expect(tally).toEqual(sql);
  });
});

describe('the tally defers to SQL where SQL could order or cut a text differently', () => {
  const row = (series: string, extra: Partial<EvidenceRow> = {}): TalliedRow => ({
    record: {
      seq: 1,
      record_id: 'r1',
      project_id: 'p',
      schema_key: 'drift_events',
      timestamp: '2026-03-01T00:00:00.000Z',
      recorded_at: '2026-03-01T00:00:00.000Z',
      payload: '{}',
      prev_hash: '0'.repeat(64),
      hash: '1'.repeat(64),
      ...extra,
    },
    series,
    outcome: 1,
  });
  const talliedRowsOf = (...rows: TalliedRow[]) => {
    const tally = new EvidenceTally(2);
    for (const r of rows) tally.add(r);
    return tally.result();
  };

  it.each([
    ['a series with a NUL', 'f\u0000\u001fm'],
    ['a series with a character outside the BMP', 'f\u{1F600}\u001fm'],
    ['a series with a lone surrogate', 'f\ud800\u001fm'],
  ])('%s', (_, series) => {
    expect(talliedRowsOf(row('f\u001fm'))).not.toBeNull();
    expect(talliedRowsOf(row('f\u001fm'), row(series, { seq: 2 }))).toBeNull();
  });

  it('a time SQLite could cut or order differently', () => {
    expect(talliedRowsOf(row('f\u001fm', { timestamp: '2026-03-01T00:00:00.000Z\u00e9' }))).toBeNull();
  });

  const series = (n: number) => row(`f${n}\u001fm`, { seq: n });

  it('more series than it keeps in memory', () => {
    expect(talliedRowsOf(series(1), series(2))).not.toBeNull();
    expect(talliedRowsOf(series(1), series(2), series(3))).toBeNull();
  });

  it('an upper part that gave up, or more series across both parts than it keeps (a split pass)', () => {
    const merged = (lower: TalliedRow[], upper: TalliedRow[]) => {
      const [a, b] = [new EvidenceTally(2), new EvidenceTally(2)];
      for (const r of lower) a.add(r);
      for (const r of upper) b.add(r);
      a.merge(structuredClone(b.state()));
      return a.result();
    };
    expect(merged([series(1)], [series(2), series(1)])).not.toBeNull();
    expect(merged([series(1)], [series(2), series(3)])).toBeNull();
    expect(merged([series(1)], [row('x\u0000', { seq: 2 })])).toBeNull();
  });
});
