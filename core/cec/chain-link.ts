/** One link of a chain segment: a full record's (seq, prev_hash, hash) or a hash-only witness. */
export type ChainLink = { readonly seq: number; readonly prev_hash: string; readonly hash: string };

/** A linker's findings as plain data, to cross a thread boundary. */
export type LinkerState = {
  readonly errors: readonly string[];
  readonly count: number;
  readonly lastSeq: number | null;
  readonly lastHash: string | null;
};

const maxErrors = 20;

/** The link's name in an error; a function, not a closure per push (a million links a verification). */
const nameOf = (link: ChainLink, label: string | (() => string) | undefined): string =>
  label === undefined ? `seq ${link.seq}` : typeof label === 'string' ? label : label();

/**
 * Re-links a chain segment fed in seq order: each link must follow the previous seq by one and carry the
 * previous hash as its prev_hash. Memory is constant whatever the segment length; errors are capped.
 */
export class ChainLinker {
  readonly errors: string[] = [];
  #expectedSeq: number | null = null;
  #lastHash: string | null = null;
  #firstPrev: string | null = null;
  #count = 0;

  /**
   * `after`: the link just before the segment, when it is the upper part of a longer one checked elsewhere (the
   * split build pass): the first link pushed must then follow it, as it would in one linker over both parts.
   */
  constructor(after?: ChainLink) {
    if (after === undefined) return;
    this.#expectedSeq = after.seq + 1;
    this.#lastHash = after.hash;
  }

  /** Adds the next link; `label` names it in errors (e.g. `record seq 5`), written only when one is reported. */
  push(link: ChainLink, label?: string | (() => string)): void {
    this.#count += 1;
    if (this.#expectedSeq === null) {
      this.#firstPrev = link.prev_hash;
    } else {
      if (link.seq !== this.#expectedSeq) this.fail(`chain: expected seq ${this.#expectedSeq}, found ${nameOf(link, label)}`);
      if (link.prev_hash !== this.#lastHash) this.fail(`chain: ${nameOf(link, label)} does not link to the previous hash`);
    }
    this.#expectedSeq = link.seq + 1;
    this.#lastHash = link.hash;
  }

  /** What a linker learnt, as plain data (a worker's reply). */
  state(): LinkerState {
    return { errors: this.errors, count: this.#count, lastSeq: this.lastSeq, lastHash: this.#lastHash };
  }

  /**
   * Continues with what the linker of the rest of the segment learnt (one constructed `after` this one's last
   * link, on another thread): its errors follow these under the same cap (a capped rest brings its own "omitted"
   * line, which lands where this cap is hit), and its last link becomes this one's.
   */
  absorb(rest: LinkerState): void {
    for (const message of rest.errors) this.fail(message);
    this.#count += rest.count;
    if (rest.count > 0 && rest.lastSeq !== null) {
      this.#expectedSeq = rest.lastSeq + 1;
      this.#lastHash = rest.lastHash;
    }
  }

  /** Records an error (bounded list). */
  fail(message: string): void {
    if (this.errors.length < maxErrors) this.errors.push(message);
    else if (this.errors.length === maxErrors) this.errors.push('chain: further errors omitted');
  }

  get count(): number {
    return this.#count;
  }
  get firstPrevHash(): string | null {
    return this.#firstPrev;
  }
  get lastHash(): string | null {
    return this.#lastHash;
  }
  get lastSeq(): number | null {
    return this.#expectedSeq === null ? null : this.#expectedSeq - 1;
  }
}
