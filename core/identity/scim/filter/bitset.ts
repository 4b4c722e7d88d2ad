/** A set of small non-negative integers (user uids) as a bitset: and/or/not over 100k users cost microseconds. */
export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly size: number) {
    this.words = new Uint32Array(Math.ceil((size + 1) / 32));
  }

  static of(size: number, members: Iterable<number>): Bitset {
    const set = new Bitset(size);
    for (const member of members) set.add(member);
    return set;
  }

  /** Every integer of [lo, hi]. */
  static range(hi: number, lo: number): Bitset {
    const set = new Bitset(hi);
    for (let member = Math.max(0, lo); member <= hi; member += 1) set.add(member);
    return set;
  }

  add(member: number): void {
    if (member >= 0 && member <= this.size) this.words[member >>> 5] = (this.words[member >>> 5] ?? 0) | (1 << (member & 31));
  }

  private combine(other: Bitset, op: (a: number, b: number) => number): Bitset {
    const result = new Bitset(this.size);
    for (let index = 0; index < result.words.length; index += 1) result.words[index] = op(this.words[index] ?? 0, other.words[index] ?? 0);
    return result;
  }

  and(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a & b);
  }

  or(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a | b);
  }

  andNot(other: Bitset): Bitset {
    return this.combine(other, (a, b) => a & ~b);
  }

  count(): number {
    let total = 0;
    for (let word of this.words) {
      word -= (word >>> 1) & 0x55555555;
      word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
      total += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    }
    return total;
  }

  /** Members in ascending order, skipping the first `skip`, at most `take` of them. */
  slice(skip: number, take: number): number[] {
    const out: number[] = [];
    let seen = 0;
    for (let index = 0; index < this.words.length && out.length < take; index += 1) {
      let word = this.words[index] ?? 0;
      while (word !== 0 && out.length < take) {
        const bit = 31 - Math.clz32(word & -word);
        word &= word - 1;
        if (seen >= skip) out.push(index * 32 + bit);
        seen += 1;
      }
    }
    return out;
  }
}
