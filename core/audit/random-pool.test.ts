import { monotonicFactory } from 'ulid';
import { describe, expect, it } from 'vitest';
import { pooledRandom } from './random-pool.ts';

describe('pooledRandom (the PRNG behind evidence record ids)', () => {
  it('returns whole bytes / 256 in [0, 1), refills past its block and reaches every ulid character', () => {
    const next = pooledRandom(16);
    const draws = Array.from({ length: 4096 }, () => next());
    expect(draws.every((x) => x >= 0 && x < 1 && Number.isInteger(x * 256))).toBe(true);
    // Past the first 16-byte block the values keep changing (a block that was not refilled would repeat).
    expect(new Set(draws.slice(16).map(String)).size).toBeGreaterThan(200);
    const characters = new Set(draws.map((x) => Math.floor(x * 32)));
    expect(characters.size).toBe(32);
  });

  it('gives ulid ids that are well formed, distinct and increasing within one millisecond', () => {
    const next = monotonicFactory(pooledRandom());
    const ids = Array.from({ length: 1000 }, () => next(1_700_000_000_000));
    expect(ids.every((id) => /^[0-9A-HJKMNP-TV-Z]{26}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    // Two factories draw different random parts.
    expect(monotonicFactory(pooledRandom())(1).slice(10)).not.toBe(monotonicFactory(pooledRandom())(1).slice(10));
  });
});
