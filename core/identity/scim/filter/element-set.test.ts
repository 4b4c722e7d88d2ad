import { describe, expect, it } from 'vitest';
import { ElementSet, elemSpan, encodeElement } from './element-set.ts';

describe('ElementSet', () => {
  it('agrees with a Set of (uid, elem) pairs on and/or/andNot, for elements below and beyond 32 per user', () => {
    const users = 300;
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    // Elements 0..40 (the mask words and the overflow list) and a few near the 1,000-value cap.
    const elems = [...Array.from({ length: 41 }, (_, i) => i), 500, 999];
    const randomPairs = (density: number): Set<number> => {
      const pairs = new Set<number>();
      for (let uid = 0; uid <= users; uid += 1) for (const elem of elems) if (next() < density) pairs.add(uid * elemSpan + elem);
      return pairs;
    };
    const a = randomPairs(0.2);
    const b = randomPairs(0.4);
    const usersOf = (pairs: Iterable<number>): number[] =>
      [...new Set([...pairs].map((p) => Math.floor(p / elemSpan)))].sort((x, y) => x - y);
    // As the database sends them (elementSql): the first element as its uid, others negated and packed.
    const sent = (pairs: Iterable<number>): number[] => [...pairs].map((p) => encodeElement(Math.floor(p / elemSpan), p % elemSpan));
    // Duplicates and uids beyond the size are tolerated as the database never sends them but a race could.
    const setA = ElementSet.of(users, [...sent(a), ...sent(a), users + 1, -((users + 1) * elemSpan + 3)]);
    const setB = ElementSet.of(users, sent(b));
    const members = (set: ElementSet): number[] => set.users().slice(0, users + 1);
    expect(members(setA)).toEqual(usersOf(a));
    expect(members(setA.and(setB))).toEqual(usersOf([...a].filter((p) => b.has(p))));
    expect(members(setA.or(setB))).toEqual(usersOf([...a, ...b]));
    expect(members(setA.andNot(setB))).toEqual(usersOf([...a].filter((p) => !b.has(p))));
    // Same user, different elements: no element is in both, so the user is not selected.
    expect(
      members(
        ElementSet.of(10, sent([3 * elemSpan + 1, 4 * elemSpan + 40])).and(ElementSet.of(10, sent([3 * elemSpan + 2, 4 * elemSpan + 41]))),
      ),
    ).toEqual([]);
    // A user's first element (sent as the bare uid) is not the same element as its second.
    expect(members(ElementSet.of(10, [5]).and(ElementSet.of(10, [encodeElement(5, 1)])))).toEqual([]);
    expect(members(ElementSet.of(10, [5]).and(ElementSet.of(10, [encodeElement(5, 0)])))).toEqual([5]);
  });
});
