import { randomFillSync } from 'node:crypto';

/**
 * A PRNG for ulid's factories that reads the OS's CSPRNG in 4 KB blocks. ulid's own asks `crypto.getRandomValues`
 * for one byte per character: 16 calls per id, ~20 µs of every scanned request's evidence record. Same source,
 * same distribution (a byte / 256 is uniform over ulid's 32 characters), one call per 256 ids.
 */
export const pooledRandom = (blockBytes = 4096): (() => number) => {
  const block = new Uint8Array(blockBytes);
  let next = blockBytes;
  return () => {
    if (next === blockBytes) {
      randomFillSync(block);
      next = 0;
    }
    return (block[next++] as number) / 256;
  };
};
