import { describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { examplePayloads } from './examples.ts';
import { storableInUtc } from './input.ts';
import { queryEvidence } from './query.ts';
import { appendEvidence, countEvidence } from './store.ts';
import { dayBounds, evidenceRows, timeFilter } from './evidence-rows.ts';

describe('dayBounds and timeFilter', () => {
  it('give the half-open range [first midnight, midnight after the last day), with no sentinel for an open end', () => {
    expect(dayBounds('2026-02-01', '2026-02-28')).toEqual({ start: '2026-02-01T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' });
    expect(dayBounds('2024-02-29', '2024-02-29').end).toBe('2024-03-01T00:00:00.000Z');
    expect(dayBounds()).toEqual({ start: '', end: null });
    expect(timeFilter('2026-02-01')).toEqual({ sql: 'timestamp >= ?', params: ['2026-02-01T00:00:00.000Z'] });
    expect(timeFilter(undefined, '2026-12-31')).toEqual({
      sql: 'timestamp >= ? AND timestamp < ?',
      params: ['', '2027-01-01T00:00:00.000Z'],
    });
    expect(() => timeFilter('2026-02-30x')).toThrow(/expected YYYY-MM-DD/);
  });
});

describe('storableInUtc', () => {
  it('answers as parsing the date does, for every field in and out of range, with and without an offset', () => {
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    const byParsing = (timestamp: string): boolean => {
      const ms = Date.parse(timestamp);
      return ms >= first && ms <= last;
    };
    const two = (n: number): string => String(n).padStart(2, '0');
    const cases: string[] = [];
    for (const year of ['0000', '0001', '2024', '2026', '9998', '9999', '10000', '999'])
      for (const month of [0, 1, 2, 4, 12, 13])
        for (const day of [0, 1, 28, 29, 30, 31, 32])
          for (const clock of ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60'])
            for (const tail of ['.000Z', '.999Z', 'Z', '.5Z', '.9999Z', '+00:00', '+01:00', '-01:00', '.000', '.000z', '.000Zx'])
              cases.push(`${year}-${two(month)}-${two(day)}T${clock}${tail}`);
    cases.push('', 'garbage', '2026-01-01', '2026-01-01 00:00:00.000Z', '+010000-01-01T00:00:00.000Z');
    const storable = cases.filter(byParsing).length;
    // Both answers occur many times, so the comparison below tests something either way.
    expect(storable).toBeGreaterThan(1000);
    expect(cases.length - storable).toBeGreaterThan(1000);
    for (const timestamp of cases) expect(storableInUtc(timestamp), timestamp).toBe(byParsing(timestamp));
  });
});

describe.each(testBackends)('open-ended date ranges on $name', (backend) => {
  const t = appPerTest(backend, { now: () => new Date('2026-03-01T12:00:00.000Z') });

  it('reach the first and the last instants a record can carry, in every reader', async () => {
    const { app } = t();
    const at = (timestamp: string, record_id: string) => ({
      project_id: 'p',
      schema_key: 'score_records' as const,
      timestamp,
      record_id,
      payload: examplePayloads.score_records,
    });
    await appendEvidence(app, [
      at('0001-01-01T00:00:00.000Z', 'earliest'),
      at('2026-02-01T00:00:00.000Z', 'middle'),
      at('9999-12-31T23:59:59.999Z', 'latest'),
    ]);
    const rows = async (q: { from?: string; to?: string }) => {
      const ids: string[] = [];
      for await (const row of evidenceRows(app.database, { projectId: 'p', ...q })) ids.push(row.record_id);
      return ids;
    };
    expect(await rows({})).toEqual(['earliest', 'middle', 'latest']);
    expect(await rows({ from: '2026-02-01' })).toEqual(['middle', 'latest']);
    expect(await rows({ to: '2026-02-01' })).toEqual(['earliest', 'middle']);
    expect(await rows({ from: '9999-12-31', to: '9999-12-31' })).toEqual(['latest']);
    const page = await queryEvidence(app, { projectId: 'p', from: '2026-02-01', limit: 10 });
    expect([page.records.map((r) => r.record_id), page.total]).toEqual([['middle', 'latest'], 2]);
    expect((await countEvidence(app.database, { projectId: 'p' })).score_records).toBe(3);
    expect((await countEvidence(app.database, { projectId: 'p', to: '2026-01-31' })).score_records).toBe(1);
  });
});
