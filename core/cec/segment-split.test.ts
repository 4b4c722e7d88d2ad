/**
 * The segment pass split over two threads (segment-split.ts) against the same pass on one thread, on each back
 * end: every entry's deflated bytes, digest and CRC, the chain proof (witnesses, segment, verdict and its
 * capped errors) and the clause-map tally must come out the same, for intact and for tampered chains.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { testBackends } from '../test-support/backends.ts';
import { EvidenceTally } from './clauses/evidence-tally.ts';
import { collectSegment } from './segment-pass.ts';
import { lowerShare, lowerShareOf, segmentWorkerRecords } from './segment-split.ts';
import { bundleAppPerTest, seedDays } from './test-support.ts';

const range = ['2026-03-01', '2026-03-31'] as const;
const day = (month: number, d: number): string => `2026-0${month}-${String(d).padStart(2, '0')}`;
/** March days (in range) interleaved with April days (out of range: witnesses between in-range records). */
const interleaved = Array.from({ length: 12 }, (_, i) => [day(3, i + 1), day(4, i + 1)]).flat();
/** A lower half with no gap at all (so the upper half writes the first witness), then interleaved days. */
const gapsAbove = [
  ...Array.from({ length: 12 }, (_, i) => day(3, i + 1)),
  day(4, 1),
  day(3, 20),
  day(4, 2),
  day(3, 21),
  day(4, 3),
  day(3, 22),
];

const pass = async (app: App, dir: string, splitFrom: number) => {
  const tally = new EvidenceTally();
  const result = await collectSegment(app, 'proj', range, mkdtempSync(join(dir, 'parts-')), 6, { records: 1, splitFrom, tally });
  const entries = { ...result.recordFiles, chain_proof: result.chainProof };
  const bytes = Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, readFileSync(file.path)]));
  const digests = Object.fromEntries(Object.entries(entries).map(([name, { path, ...digest }]) => [name, digest]));
  const { recordFiles: _files, chainProof: _proof, splitAfter, ...summary } = result;
  return { splitAfter, summary, bytes, digests, tally: tally.result() };
};

describe.each(testBackends)('the segment pass over two threads on $name', (backend) => {
  const t = bundleAppPerTest(backend);

  const bothWays = async () => {
    const { app, dir } = t();
    const one = await pass(app, dir, Number.POSITIVE_INFINITY);
    const two = await pass(app, dir, 0);
    expect(one.splitAfter).toBeNull();
    expect(two.splitAfter).toEqual(expect.any(Number));
    expect(two.bytes).toEqual(one.bytes);
    expect(two.digests).toEqual(one.digests);
    expect(two.summary).toEqual(one.summary);
    expect(two.tally).toEqual(one.tally);
    expect(one.tally).not.toBeNull();
    return { one, two };
  };

  it.each([
    ['in-range days interleaved with out-of-range days', interleaved],
    ['no gap below the split, gaps above it', gapsAbove],
  ])('writes the same entries either way: %s', async (_, days) => {
    await seedDays(t().app, 'proj', days, 4);
    const { one, two } = await bothWays();
    expect(one.summary.witnesses).toBeGreaterThan(0);
    expect(one.summary.verification).toMatchObject({ valid: true, errors: [] });
    const { first_seq, last_seq } = one.summary.segment ?? { first_seq: 0, last_seq: 0 };
    expect(two.splitAfter).toBeGreaterThan(first_seq);
    expect(two.splitAfter).toBeLessThan(last_seq);
  });

  it('fails with the reason when the worker cannot read its half, instead of hanging', async () => {
    const { app, dir } = t();
    await seedDays(app, 'proj', interleaved, 1);
    const broken: App = Object.create(app, { dataDir: { value: join(dir, 'missing', '\u0000') } });
    const parts = mkdtempSync(join(dir, 'parts-'));
    // SQLite: the worker's own read-only connection names what failed; PostgreSQL: its openApp does.
    const reason = backend.name === 'sqlite' ? /segment worker: Cannot open database/ : /segment worker: ./;
    await expect(collectSegment(broken, 'proj', range, parts, 6, { records: 1, splitFrom: 0 })).rejects.toThrow(reason);
  }, 60_000);

  it('reports a tampered chain the same either way: errors at the seam, in both halves, past the cap', async () => {
    const { app } = t();
    await seedDays(app, 'proj', interleaved, 4);
    const split = (await pass(app, t().dir, 0)).splitAfter as number;
    const tamper = (seq: number) =>
      app.database.run('UPDATE audit_records SET hash = ? WHERE project_id = ? AND seq = ?', ['f'.repeat(64), 'proj', seq]);
    // The lower half's last link, five links below it and ten above: 32 errors, so the cap cuts into the upper half.
    for (const seq of [
      split,
      3,
      9,
      15,
      21,
      27,
      split + 2,
      split + 4,
      split + 6,
      split + 8,
      split + 10,
      split + 12,
      split + 14,
      split + 16,
      split + 18,
      split + 20,
    ])
      await tamper(seq);
    const { one } = await bothWays();
    const { errors } = one.summary.verification;
    expect(errors).toHaveLength(21);
    expect(errors.at(-1)).toBe('chain: further errors omitted');
    expect(errors).toContain(`chain: seq ${split + 1} does not link to the previous hash`);
    expect(errors).toContain(`chain: seq ${split + 2} hash does not match its content`);
  });

  it('writes a stored hash or record id that JSON must escape, or a hash too short to splice, as valid JSON, and reports it', async () => {
    const { app } = t();
    await seedDays(app, 'proj', interleaved, 4);
    const hostile = [`é"${'a'.repeat(62)}`, 'x'];
    // The first in-range record (the building thread's half) and the last (the worker's half of the split pass).
    const inRange = await app.database.tuples(
      (v) => Number(v[0]),
      "SELECT seq FROM audit_records WHERE project_id = 'proj' AND timestamp < '2026-04-01' ORDER BY seq",
    );
    const stored = [inRange[0] ?? 0, inRange.at(-1) ?? 0];
    for (const [i, seq] of stored.entries())
      await app.database.run('UPDATE audit_records SET hash = ? WHERE project_id = ? AND seq = ?', [hostile[i] ?? '', 'proj', seq]);
    // A record id with a quote, a backslash, a control and a non-ASCII character, on a record of each half.
    const odd = 'r"\\\u0001é';
    const renamed = [inRange[1] ?? 0, inRange.at(-2) ?? 0];
    for (const [i, seq] of renamed.entries())
      await app.database.run('UPDATE audit_records SET record_id = ? WHERE project_id = ? AND seq = ?', [`${odd}${i}`, 'proj', seq]);
    const { one } = await bothWays();
    const lines = Object.entries(one.bytes)
      .filter(([name]) => name !== 'chain_proof')
      .flatMap(([, bytes]) =>
        inflateRawSync(bytes)
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      )
      .map((line) => JSON.parse(line) as { seq: number; hash: string; record_id: string });
    const written = lines.filter((line) => stored.includes(line.seq)).sort((a, b) => a.seq - b.seq);
    expect(written.map((line) => line.hash)).toEqual(hostile);
    const withOddIds = lines.filter((line) => renamed.includes(line.seq)).sort((a, b) => a.seq - b.seq);
    expect(withOddIds.map((line) => line.record_id)).toEqual([`${odd}0`, `${odd}1`]);
    for (const seq of [...stored, ...renamed])
      expect(one.summary.verification.errors).toContain(`chain: seq ${seq} hash does not match its content`);
  });
});

describe('the building thread’s share of a split pass', () => {
  it('adds the worker’s start-up to the building thread’s share: about half at 50k seqs, near lowerShare at 1M', () => {
    expect(lowerShareOf(segmentWorkerRecords - 1)).toBe(lowerShare);
    expect(lowerShareOf(50_000)).toBeCloseTo(0.5, 1);
    expect(lowerShareOf(1_000_000)).toBeCloseTo(lowerShare, 2);
    const sizes = [segmentWorkerRecords, 50_000, 200_000, 1_000_000, 10_000_000];
    const shares = sizes.map(lowerShareOf);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    for (const share of shares) expect(share).toBeGreaterThan(lowerShare);
    for (const share of shares) expect(share).toBeLessThan(1);
  });
});
