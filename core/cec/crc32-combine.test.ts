import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32Combine } from './crc32-combine.ts';

describe('crc32Combine (zlib crc32_combine)', () => {
  it('gives the CRC-32 of the two parts joined, for any parts', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
      }),
      { numRuns: 500 },
    );
  });

  it('handles parts of megabytes, with every length bit set (the table is walked to its end)', () => {
    const a = Buffer.alloc(1 << 20, 'a');
    for (const length of [(1 << 21) - 1, 3 * (1 << 20) + 5]) {
      const b = Buffer.alloc(length);
      for (let i = 0; i < length; i += 4093) b[i] = i & 0xff;
      expect(crc32Combine(crc32(a), crc32(b), length)).toBe(crc32(Buffer.concat([a, b])));
    }
  });
});
