/** One link of a chain segment: a full record's (seq, prev_hash, hash) or a hash-only witness. */
export type ChainLink = { readonly seq: number; readonly prev_hash: string; readonly hash: string };

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
