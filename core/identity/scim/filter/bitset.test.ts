import { describe, expect, it } from 'vitest';
import { Bitset } from './bitset.ts';

describe('Bitset', () => {
  it('agrees with a Set on and/or/andNot, count and ordered slices across word boundaries', () => {
    const size = 10_000;
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const randomSet = (density: number): Set<number> =>
      new Set(Array.from({ length: size + 1 }, (_, i) => i).filter(() => next() < density));
    const a = randomSet(0.3);
    const b = randomSet(0.6);
    const sorted = (set: Iterable<number>): number[] => [...set].sort((x, y) => x - y);
    const bitsA = Bitset.of(size, a);
    const bitsB = Bitset.of(size, b);
    expect(sorted(bitsA.and(bitsB).slice(0, size + 1))).toEqual(sorted([...a].filter((x) => b.has(x))));
    expect(bitsA.or(bitsB).count()).toBe(new Set([...a, ...b]).size);
    expect(bitsA.andNot(bitsB).slice(0, size + 1)).toEqual(sorted([...a].filter((x) => !b.has(x))));
    expect(bitsA.count()).toBe(a.size);
    expect(bitsA.slice(1000, 50)).toEqual(sorted(a).slice(1000, 1050));
    expect(Bitset.of(size, [0, 31, 32, 63, 64, size]).slice(0, 10)).toEqual([0, 31, 32, 63, 64, size]);
    expect(Bitset.range(70, 30).slice(0, 100)).toEqual(Array.from({ length: 41 }, (_, i) => 30 + i));
  });
});
