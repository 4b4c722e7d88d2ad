import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ChunkPool, chunkBytes, Utf8Chunks } from './utf8-chunks.ts';

/** `reused`: each chunk's buffer takes the next text (a file write); else a pool's, given back later (a deflater). */
const collect = (reused: boolean): { chunks: Utf8Chunks; out: () => string } => {
  const parts: Buffer[] = [];
  const pool = new ChunkPool();
  const chunks = new Utf8Chunks(
    (bytes, chunk) => {
      parts.push(Buffer.from(bytes));
      // Done with it at once: the pool hands the same buffer out again, and no line may suffer for it.
      if (chunk !== null && !reused) pool.give(chunk);
    },
    (emitted) => (reused ? (emitted ?? pool.take()) : pool.take()),
  );
  return { chunks, out: () => Buffer.concat(parts).toString('utf8') };
};
const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

describe('Utf8Chunks.writeSpliced', () => {
  it('writes the text with its head replaced and a newline, and shows the whole text encoded once', () => {
    const { chunks, out } = collect(true);
    const prev = 'a'.repeat(64);
    const text = `${prev}{"payload":{"name":"Zoë ✓ 𝄞"},"seq":1}`;
    chunks.write('before|');
    const seen = chunks.writeSpliced(text, prev.length + 1, `{"hash":"${'b'.repeat(64)}",`, (bytes) => sha256(bytes));
    chunks.flush();
    expect(seen).toBe(sha256(text));
    expect(out()).toBe(`before|{"hash":"${'b'.repeat(64)}","payload":{"name":"Zoë ✓ 𝄞"},"seq":1}\n`);
  });

  it('keeps every line whole across many chunks, reused or taken from a pool', () => {
    for (const reused of [true, false]) {
      const { chunks, out } = collect(reused);
      let expected = '';
      for (let i = 0; i < 4000; i++) {
        const text = `p${i}{"v":"${'é'.repeat(i % 700)}"}`;
        const head = `{"h":${i},`;
        expect(chunks.writeSpliced(text, `p${i}{`.length, head, (bytes) => Buffer.from(bytes).toString('utf8'))).toBe(text);
        expected += `${head}${text.slice(`p${i}{`.length)}\n`;
      }
      chunks.flush();
      expect(out()).toBe(expected);
    }
  });

  it('declines a head shorter than what it replaces, or a text larger than a chunk', () => {
    const { chunks, out } = collect(true);
    expect(chunks.writeSpliced('abcdef', 4, 'x', () => 'seen')).toBeNull();
    expect(chunks.writeSpliced('y'.repeat(1 << 20), 1, 'zz', () => 'seen')).toBeNull();
    chunks.flush();
    expect(out()).toBe('');
  });
});

describe('Utf8Chunks chunk sizes', () => {
  it('hands on its first chunk at 16 KiB, then whole chunks, so a pass meets a flush in its first rows', () => {
    const sizes: number[] = [];
    const chunks = new Utf8Chunks(
      (bytes) => sizes.push(bytes.length),
      (emitted) => emitted ?? Buffer.allocUnsafe(chunkBytes),
    );
    const line = 'x'.repeat(999);
    for (let i = 0; i < 2000; i++) expect(chunks.writeSpliced(`p{${line}`, 2, '{"', () => true)).toBe(true);
    chunks.flush();
    // A line fits while its worst case (3 bytes a unit) does: the first chunk ends under 16 KiB, the next under 1 MiB.
    expect(sizes[0]).toBeLessThanOrEqual(16 << 10);
    expect(sizes[0]).toBeGreaterThan((16 << 10) - 3 * 1001);
    expect(sizes[1]).toBeGreaterThan(chunkBytes - 3 * 1001);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(2000 * 1002);
  });
});
