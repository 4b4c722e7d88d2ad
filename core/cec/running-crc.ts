import { crc32 } from 'node:zlib';
import { crc32Combine } from './crc32-combine.ts';

/** The CRC-32 and length of some bytes written (a part file, an entry). */
export type PartDigest = { readonly crc32: number; readonly size: number };

/**
 * The CRC-32 and byte count of an entry as it is written. Held in a Float64Array, not in number fields: a CRC
 * at or above 2^30 is not one of V8's small integers, and the first such value stored into a field that held
 * small integers changes the layout of the object holding it, which discards the optimized code of every
 * function that used that object, on each thread of a build (docs/decisions.md, "Bundle build, ninth pass").
 */
export class RunningCrc {
  readonly #state = new Float64Array(2);

  /** Counts `bytes`; with `checksum` false their CRC-32 is added later (`combine`), as their writer computed it. */
  update(bytes: Uint8Array, checksum = true): void {
    if (checksum) this.#state[0] = crc32(bytes, this.#state[0] as number);
    (this.#state[1] as number) += bytes.length;
  }

  /** Extends the CRC-32 by that of `part`, whose bytes were counted without it (nothing counted in between). */
  combine(part: PartDigest): void {
    this.#state[0] = crc32Combine(this.#state[0] as number, part.crc32, part.size);
  }

  get size(): number {
    return this.#state[1] as number;
  }

  digest(): PartDigest {
    return { crc32: this.#state[0] as number, size: this.#state[1] as number };
  }
}
