import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { type TestBackend, appPerTest, testBackends } from '../test-support/backends.ts';
import { GENESIS_HASH, computeRecordHash, hashWithCanonicalPayload, jcs } from './chain.ts';
import { examplePayloads, exampleEvidence } from './examples.ts';
import { appendEvidence, countEvidence } from './store.ts';
import { chainRows, evidenceRows } from './evidence-rows.ts';
import type { EvidenceInput } from './types.ts';
import { verifyChain } from './verify.ts';

const now = new Date('2026-03-01T12:00:00.000Z');

const score = (over: Partial<EvidenceInput> = {}): EvidenceInput => ({
  project_id: 'p1',
  schema_key: 'score_records',
  payload: examplePayloads.score_records,
  ...over,
});
const thrown = async (work: Promise<unknown>): Promise<AppError> => {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
};

/** A fresh app per test on `backend`, with its record count and an append. */
const appendingApp = (backend: TestBackend) => {
  const t = appPerTest(backend, { now: () => now });
  return {
    t,
    rowCount: async (): Promise<number> =>
      (await t().app.database.one(z.object({ n: z.number() }), 'SELECT count(*) AS n FROM audit_records'))?.n ?? -1,
    append: (inputs: EvidenceInput[]) => appendEvidence(t().app, inputs),
  };
};

describe.each(testBackends)('appendEvidence on $name', (backend) => {
  const { t, rowCount, append } = appendingApp(backend);

  it('chains records per project from seq 1 with the contract hash', async () => {
    const records = await append([score(), score({ project_id: 'p2' }), score({ record_id: 'r-3' })]);
    expect(records.map((r) => [r.project_id, r.seq])).toEqual([
      ['p1', 1],
      ['p2', 1],
      ['p1', 2],
    ]);
    const [a, b, c] = records as [(typeof records)[0], (typeof records)[0], (typeof records)[0]];
    expect(a.prev_hash).toBe(GENESIS_HASH);
    expect(b.prev_hash).toBe(GENESIS_HASH);
    expect(c.prev_hash).toBe(a.hash);
    expect(c.record_id).toBe('r-3');
    expect(a.recorded_at).toBe('2026-03-01T12:00:00.000Z');
    expect(a.timestamp).toBe('2026-03-01T12:00:00.000Z');
    // Independent recomputation straight from the contract text.
    const { hash, ...rest } = c;
    const expected = createHash('sha256')
      .update(c.prev_hash + canonicalize(rest))
      .digest('hex');
    expect(hash).toBe(expected);
    expect(computeRecordHash(rest)).toBe(expected);
    expect((await append([score()]))[0]?.seq).toBe(3);
  });

  it('hashes by the contract after a stored head hash that needs escaping (the writer trusts only its own hex)', async () => {
    await append([score()]);
    // Only a tampered database holds such a head; the next record still covers it exactly as JCS writes it.
    await t().app.database.run('UPDATE audit_chain_heads SET head_hash = ? WHERE project_id = ?', ['q"u\\ote', 'p1']);
    const records = await append([score({ record_id: 'r-2' }), score({ record_id: 'r-3' })]);
    for (const { hash, ...rest } of records) {
      expect(hash).toBe(
        createHash('sha256')
          .update(rest.prev_hash + canonicalize(rest))
          .digest('hex'),
      );
    }
    expect(records[0]?.prev_hash).toBe('q"u\\ote');
    expect(records[1]?.prev_hash).toBe(records[0]?.hash);
  });

  it('names a duplicate inside a batch larger than one INSERT, and the rows before it are not kept', async () => {
    const batch = Array.from({ length: 2500 }, (_, i) => score({ record_id: `r${i}` }));
    batch[2345] = score({ record_id: 'r17' });
    const error = await thrown(append(batch));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toMatch(/^record 2345: record_id r17 /);
    expect(await rowCount()).toBe(0);
    await append([score({ record_id: 'taken' })]);
    const again = await thrown(
      append([...Array.from({ length: 1500 }, (_, i) => score({ record_id: `s${i}` })), score({ record_id: 'taken' })]),
    );
    expect(again.message).toMatch(/^record 1500: record_id taken /);
    expect(await rowCount()).toBe(1);
  });

  it('rejects a batch validated in chunks as a whole: invalid records anywhere win over an earlier duplicate', async () => {
    await append([score({ record_id: 'taken' })]);
    const bad = score({ payload: { ...examplePayloads.score_records, vlaue: 1 } });
    const batch = Array.from({ length: 700 }, (_, i) => score({ record_id: `v${i}` }));
    batch[10] = score({ record_id: 'taken' });
    batch[600] = bad;
    batch[650] = bad;
    const error = await thrown(append(batch));
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toMatch(/^2 invalid record\(s\), nothing was written; record 600: .*vlaue/);
    expect(error.detail).toEqual({ errors: [expect.objectContaining({ index: 600 }), expect.objectContaining({ index: 650 })] });
    expect(await rowCount()).toBe(1);
    batch[600] = score({ record_id: 'v600' });
    batch[650] = score({ record_id: 'v650' });
    const conflict = await thrown(append(batch));
    expect(conflict.message).toMatch(/^record 10: record_id taken /);
    expect(await rowCount()).toBe(1);
    batch[10] = score({ record_id: 'v10' });
    const records = await append(batch);
    expect(records.map((record) => record.seq)).toEqual(Array.from({ length: 700 }, (_, i) => i + 2));
    expect(await verifyChain(t().app, 'p1')).toMatchObject({ valid: true, head_seq: 701 });
  });
});

describe('record hash', () => {
  it('hashes the same with the fast path for non-ASCII and nested payloads', () => {
    const payload = { z: 'Zoë ☃ 😀', a: [1, 2.5, { y: null, b: true }], '€': 1e21, é: -0 };
    const base = {
      seq: 7,
      record_id: 'r',
      project_id: 'p',
      schema_key: 'score_records' as const,
      timestamp: 't',
      recorded_at: 'u',
      prev_hash: GENESIS_HASH,
    };
    expect(hashWithCanonicalPayload(base, jcs(payload))).toBe(computeRecordHash({ ...base, payload }));
  });

  it('hashes the same whether or not an envelope field needs escaping', () => {
    const payload = examplePayloads.score_records;
    const base = {
      seq: 12,
      record_id: 'r-1',
      project_id: 'p',
      schema_key: 'score_records' as const,
      timestamp: '2026-01-01T00:00:00.000Z',
      recorded_at: '2026-01-02T00:00:00.000Z',
      prev_hash: GENESIS_HASH,
    };
    const awkward = ['plain', 'quote"d', 'back\\slash', 'tab\t', 'Zoë', '😀', '~', ' ', '\u007f'];
    for (const field of ['record_id', 'project_id', 'timestamp', 'recorded_at', 'prev_hash'] as const) {
      for (const text of awkward) {
        const record = { ...base, [field]: text };
        expect(hashWithCanonicalPayload(record, jcs(payload))).toBe(computeRecordHash({ ...record, payload }));
      }
    }
  });

  it('agrees with the canonicalize package (RFC 8785) on awkward values', () => {
    const values: unknown[] = [
      { b: 1, a: [true, false, null], '€': 'x', é: 'y', '\u{1F600}': 'emoji key', '\uFF61': 'half-width' },
      [1e21, 1e-7, -0, 0.1 + 0.2, 123456789012345680000, 5e-324, -1.5e300],
      { nested: { z: { y: { x: ['\u2028', '"quote"', '\\', '\u0007', 'tab\t'] } } } },
      'plain',
      { skip: undefined, keep: 1 },
      { '10': 'index-like keys', '9': 'sort as text in JCS', a: 1 },
      JSON.parse('{"z":{"__proto__":{"x":1}},"a":2}'),
      { a: 1, b: { c: [1, { d: 2, e: 3 }] } },
    ];
    for (const value of values) expect(jcs(value)).toBe(canonicalize(value));
    expect(() => jcs({ bad: '\uD800' })).toThrow(/surrogate/);
    expect(() => jcs([Number.NaN])).toThrow();
  });
});

describe.each(testBackends)('appendEvidence input rules on $name', (backend) => {
  const { t, rowCount, append } = appendingApp(backend);

  it('normalises event time to UTC and keeps recorded time separate', async () => {
    const [r] = await append([score({ timestamp: '2026-01-01T01:30:00+02:00' })]);
    expect(r?.timestamp).toBe('2025-12-31T23:30:00.000Z');
    expect(r?.recorded_at).toBe('2026-03-01T12:00:00.000Z');
  });

  it('accepts event times at the ends of years 0000-9999 in UTC and refuses an offset that carries one past them', async () => {
    const stored = await append([score({ timestamp: '9999-12-31T23:59:59.999Z' }), score({ timestamp: '0000-01-01T00:30:00-00:30' })]);
    expect(stored.map((r) => r.timestamp)).toEqual(['9999-12-31T23:59:59.999Z', '0000-01-01T01:00:00.000Z']);
    // In UTC these are 10000-01-01T04:00Z and -0001-12-31T23:30Z: stored, they would read '+010000-...' and sort first.
    for (const timestamp of ['9999-12-31T23:00:00-05:00', '0000-01-01T00:30:00+01:00']) {
      const error = await thrown(append([score({ timestamp })]));
      expect(error.code).toBe('VALIDATION');
      expect(error.message).toMatch(/timestamp: must fall within the years 0000 to 9999/);
    }
    expect(await rowCount()).toBe(2);
  });

  it('writes nothing of a batch with one invalid record and names it', async () => {
    const bad = score({ payload: { ...examplePayloads.score_records, vlaue: 1 } });
    const error = await thrown(append([score(), score(), bad]));
    expect(error.code).toBe('VALIDATION');
    expect(error.message).toMatch(/record 2: .*vlaue/);
    expect(await rowCount()).toBe(0);
    expect((await append([score()]))[0]?.seq).toBe(1);
  });

  it('rejects a duplicate record_id with CONFLICT and writes nothing of the batch', async () => {
    await append([score({ record_id: 'dup' })]);
    const error = await thrown(append([score({ record_id: 'fresh' }), score({ record_id: 'dup' })]));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain('record 1: record_id dup');
    expect(await rowCount()).toBe(1);
    expect((await thrown(append([score({ record_id: 'x' }), score({ record_id: 'x' })]))).code).toBe('CONFLICT');
    expect(await rowCount()).toBe(1);
    // The same record_id in another project is a different record.
    expect(await append([score({ project_id: 'other', record_id: 'dup' })])).toHaveLength(1);
    const head = await t().app.database.one(
      z.object({ head_seq: z.number() }),
      "SELECT head_seq FROM audit_chain_heads WHERE project_id = 'p1'",
    );
    expect(head?.head_seq).toBe(1);
  });

  it('rejects unknown schema keys, bad ids and oversized payloads', async () => {
    expect((await thrown(append([{ ...score(), schema_key: 'scores' as never }]))).code).toBe('VALIDATION');
    expect((await thrown(append([score({ project_id: '../etc' })]))).code).toBe('VALIDATION');
    const huge = { ...examplePayloads.score_records, extra: { blob: 'x'.repeat(70_000) } };
    expect((await thrown(append([score({ payload: huge })]))).message).toMatch(/larger than/);
  });
});

describe.each(testBackends)('range reads on $name', (backend) => {
  const t = appPerTest(backend, { now: () => now });
  const at = (timestamp: string, record_id: string): EvidenceInput => score({ timestamp, record_id });
  const read = async (q: Parameters<typeof evidenceRows>[1]) => {
    const rows = [];
    for await (const row of evidenceRows(t().app.database, q)) rows.push(row);
    return rows;
  };

  it('treats from/to as inclusive UTC days', async () => {
    const { app } = t();
    await appendEvidence(app, [
      at('2026-01-31T23:59:59.999Z', 'before'),
      at('2026-02-01T00:00:00.000Z', 'first-instant'),
      at('2026-02-01T01:00:00+02:00', 'offset-before'), // 2026-01-31T23:00Z
      at('2026-02-28T23:59:59.999Z', 'last-instant'),
      at('2026-03-01T00:00:00.000Z', 'after'),
    ]);
    const ids = (await read({ projectId: 'p1', from: '2026-02-01', to: '2026-02-28' })).map((r) => r.record_id);
    expect(ids).toEqual(['first-instant', 'last-instant']);
    expect((await read({ projectId: 'p1', from: '2026-03-01' })).map((r) => r.record_id)).toEqual(['after']);
    expect(await read({ projectId: 'p1', to: '2026-01-31' })).toHaveLength(2);
    expect(await countEvidence(app.database, { projectId: 'p1', from: '2026-02-01', to: '2026-02-28' })).toEqual({
      score_records: 2,
      bias_reports: 0,
      prri_records: 0,
      drift_events: 0,
      pii_detections: 0,
      gate_evaluations: 0,
    });
    await expect(read({ projectId: 'p1', from: '2026-02-30x' })).rejects.toThrow(/YYYY-MM-DD/);
  });

  it('iterates across internal pages in seq order, by key, and chain segments', async () => {
    const { app } = t();
    await appendEvidence(
      app,
      Array.from({ length: 2500 }, (_, i) => exampleEvidence(i, 'big')),
    );
    const all = await read({ projectId: 'big' });
    expect(all).toHaveLength(2500);
    expect(all.every((r, i) => r.seq === i + 1)).toBe(true);
    const drift = await read({ projectId: 'big', schemaKey: 'drift_events' });
    expect(drift).toHaveLength(417); // keys cycle; 2500 = 6 * 416 + 4, drift is the 4th key
    expect(drift.every((r) => r.schema_key === 'drift_events')).toBe(true);
    const segment = [];
    for await (const row of chainRows(app.database, 'big', 999, 2001)) segment.push(row);
    expect(segment.map((r) => r.seq)).toEqual(Array.from({ length: 1003 }, (_, i) => 999 + i));
    expect(segment[1]?.prev_hash).toBe(segment[0]?.hash);
    expect((await countEvidence(app.database, { projectId: 'big' })).score_records).toBe(417);
  });
});
