/**
 * zlib's crc32_combine (crc32.c, the x^(2^n) table form), which node:zlib does not expose: the CRC-32 of A then B
 * from the CRC-32 of each and B's length. The segment worker CRCs the part it writes, so the building thread,
 * which must still hash and deflate those bytes in order, does not CRC them too (segment-split.ts).
 */
const poly = 0xedb88320;

/** a(x) * b(x) modulo the CRC polynomial, bit-reflected as zlib keeps them. */
const multModP = (a: number, b: number): number => {
  let m = 0x80000000;
  let p = 0;
  let bb = b;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= bb;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    bb = (bb & 1) !== 0 ? (bb >>> 1) ^ poly : bb >>> 1;
  }
  return p >>> 0;
};

/** x^(2^n) modulo the polynomial, n = 0..31. */
const x2nTable: number[] = [];
for (let n = 0, p = 0x40000000; n < 32; n++, p = multModP(p, p)) x2nTable.push(p);

/** x^(n * 2^k) modulo the polynomial. */
const x2nModP = (n: number, k: number): number => {
  let p = 0x80000000;
  for (let rest = n, i = k; rest > 0; rest = Math.floor(rest / 2), i++) {
    if (rest % 2 === 1) p = multModP(x2nTable[i & 31] as number, p);
  }
  return p;
};

/** The CRC-32 of A followed by B, given crc32(A), crc32(B) and B's length in bytes. */
export const crc32Combine = (crcA: number, crcB: number, lengthB: number): number => (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
