import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jcs } from './chain.ts';
import { examplePayloads } from './examples.ts';
import { compileFast, compileFastAll } from './fast-payload.ts';
import { prepareInput, prepareWithZod } from './input.ts';
import { payloadSchemas } from './schemas.ts';
import { type SchemaKey, schemaKeys } from './types.ts';

/** Seeded PRNG (mulberry32): the same cases on every run, so a failure reproduces. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

class Instance {
  a = 1;
}
const nullProto = Object.assign(Object.create(null) as object, { a: 1 });

/** Values a producer might send by mistake or on purpose, around every boundary the schemas draw. */
const pool = (): unknown[] => [
  '',
  ' ',
  ' padded ',
  'x',
  'en',
  'a'.repeat(64),
  'a'.repeat(65),
  'a'.repeat(200),
  'a'.repeat(201),
  '😀'.repeat(100),
  '😀'.repeat(101),
  '😀'.repeat(201),
  'é'.repeat(201),
  '\uD800',
  'a\uDC00b',
  'quote"back\\slash\nnew\ttab\u0007',
  '\u2028\u00a0',
  'roc_auc',
  'ROC AUC',
  'psi',
  'PSI',
  'EMAIL_ADDRESS',
  'email',
  'pass',
  'override',
  'medium',
  '2026-10-01T00:00:00Z',
  '2026-10-08T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-10-01T00:00:00+02:00',
  '2026-10-01T00:00:00.123456Z',
  '2026-10-01 00:00:00',
  0,
  -0,
  1,
  -1,
  0.5,
  1.5,
  4,
  100,
  101,
  1e21,
  5e-324,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  2 ** 53,
  2 ** 53 - 1,
  3.7,
  true,
  false,
  null,
  undefined,
  [],
  [1],
  [undefined],
  {},
  { a: 1 },
  { nested: { deeper: [1, 'two', { three: null }] } },
  new Date(0),
  nullProto,
  JSON.parse('{"__proto__":{"x":1}}'),
  { constructor: 'x' },
  { [Symbol('s')]: 1 },
  new Instance(),
  () => 1,
  10n,
  { skip: undefined, keep: 1 },
  { '10': 'index-like', '9': 'keys', é: 'non-ascii', '\u{1F600}': 'astral' },
];

type Slot = { parent: Record<string | number, unknown>; key: string | number };
/** Every (container, key) slot of a JSON-like tree: objects and arrays. */
const slots = (value: unknown, into: Slot[] = []): Slot[] => {
  if (typeof value !== 'object' || value === null) return into;
  const parent = value as Record<string | number, unknown>;
  for (const key of Object.keys(parent)) {
    into.push({ parent, key: Array.isArray(value) ? Number(key) : key });
    slots(parent[key], into);
  }
  return into;
};
const containers = (value: unknown, into: object[] = []): object[] => {
  if (typeof value !== 'object' || value === null) return into;
  into.push(value);
  for (const item of Object.values(value)) containers(item, into);
  return into;
};
const newKeys = ['modle_id', 'labels', 'extra', 'text', 'matched_text', 'constructor', '10', 'é', 'EMAIL_ADDRESS', 'a'.repeat(65)];

/** A payload of `key` with 0-3 random mutations (0 keeps the valid example, plus random labels/extra). */
const mutated = (key: SchemaKey, next: () => number): unknown => {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const payload = JSON.parse(JSON.stringify(examplePayloads[key])) as Record<string, unknown>;
  if (next() < 0.5) payload.labels = { run: String(Math.floor(next() * 1000)), team: 'risk' };
  if (next() < 0.3) payload.extra = { ticket: 'JIRA-1', nested: { a: [1, 2.5, null] } };
  const mutations = Math.floor(next() * 4);
  for (let m = 0; m < mutations; m++) {
    const roll = next();
    if (roll < 0.5) {
      const slot = pick(slots(payload));
      if (slot) slot.parent[slot.key] = pick(pool());
    } else if (roll < 0.7) {
      const slot = pick(slots(payload));
      if (slot && !Array.isArray(slot.parent)) delete slot.parent[slot.key];
    } else if (roll < 0.85) {
      const target = pick(containers(payload)) as Record<string, unknown>;
      if (!Array.isArray(target)) target[pick(newKeys)] = pick(pool());
    } else if (roll < 0.92) {
      const target = pick(containers(payload));
      if (Array.isArray(target)) target.length = next() < 0.5 ? 0 : target.length + 1;
    } else {
      Object.defineProperty(payload, '__proto__', { value: { x: 1 }, enumerable: true, configurable: true, writable: true });
    }
  }
  return payload;
};

const cases = 2000;

describe('compiled fast path vs zod', () => {
  // Compiled together, as input.ts does: the shared parts (labels, extra) are one function.
  const compiled = compileFastAll(payloadSchemas);
  it.each(schemaKeys)('%s: whatever the fast path accepts, zod accepts with the same JCS bytes', (key) => {
    const fast = compiled[key];
    const next = random(schemaKeys.indexOf(key) + 1);
    let fastAccepted = 0;
    let zodAccepted = 0;
    for (let i = 0; i < cases; i++) {
      const payload = mutated(key, next);
      const text = fast(payload);
      const parsed = payloadSchemas[key].safeParse(payload);
      if (parsed.success) zodAccepted += 1;
      if (text === undefined) continue;
      fastAccepted += 1;
      expect(parsed.success, `fast accepted what zod rejects: ${String(text)}`).toBe(true);
      expect(text).toBe(jcs(parsed.data));
      expect(text).toBe(canonicalize(parsed.data));
    }
    // Soundness is the assertion above; this checks the fast path still answers for most valid payloads (its point).
    expect(fastAccepted).toBeGreaterThan(zodAccepted * 0.7);
    expect(cases - zodAccepted).toBeGreaterThan(cases * 0.3);
    expect(fast({ ...examplePayloads[key], labels: { run: '7' } })).toBeDefined();
  });

  it('prepareInput gives the same verdict, issues and bytes as the zod path on generated envelopes', () => {
    const next = random(99);
    const now = new Date('2026-03-01T12:00:00.000Z');
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    let ok = 0;
    for (let i = 0; i < cases * 2; i++) {
      const key = pick(schemaKeys);
      const raw: Record<string, unknown> = {
        project_id: 'p-1',
        schema_key: key,
        record_id: `r${i}`,
        timestamp: '2026-01-01T00:00:00.000Z',
        payload: mutated(key, next),
      };
      if (next() < 0.3) raw[pick(['project_id', 'schema_key', 'record_id', 'timestamp', 'payload', 'extra'])] = pick(pool());
      if (next() < 0.1) delete raw[pick(['project_id', 'schema_key', 'record_id', 'timestamp', 'payload'])];
      const fast = prepareInput(raw, now);
      const slow = prepareWithZod(raw, now);
      expect(fast.ok).toBe(slow.ok);
      if (fast.ok && slow.ok) {
        ok += 1;
        const { payload: _f, ...fastValue } = fast.value;
        const { payload: slowPayload, ...slowValue } = slow.value;
        if (raw.record_id === undefined) {
          expect(fastValue.record_id).toMatch(/^[0-9A-Z]{26}$/);
          fastValue.record_id = slowValue.record_id;
        }
        expect(fastValue).toEqual(slowValue);
        expect(fast.value.payload).toEqual(slowPayload);
      } else expect(fast).toEqual(slow);
    }
    expect(ok).toBeGreaterThan(cases * 0.3);
  });

  it('refuses at compile time what it cannot prove (a transform), instead of guessing', () => {
    expect(() => compileFast(z.strictObject({ a: z.string().transform((s) => s.length) }))).toThrow(/unsupported/);
    expect(() => compileFast(z.object({ a: z.string() }))).toThrow(/strict/);
  });
});
