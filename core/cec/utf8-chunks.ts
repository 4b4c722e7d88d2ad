/** Text is encoded into buffers of this many bytes and handed on one buffer at a time. */
export const chunkBytes = 1 << 20;
const firstChunkBytes = 16 << 10;

/**
 * Chunk buffers taken for encoding or reading and given back once their receiver is done with them (a deflater
 * has compressed them), so a build allocates a handful, not one per MiB written. Each fresh 1 MiB buffer lay
 * outside V8's heap and added to the external memory whose growth sets off full garbage collections: 0.1 s of
 * the building thread's CPU per 50k records (docs/decisions.md, "Bundle build, ninth pass"). The pool never holds
 * more than were in flight at once, which the deflaters' back-pressure bounds.
 */
export class ChunkPool {
  readonly #free: Buffer[] = [];

  take(): Buffer {
    return this.#free.pop() ?? Buffer.allocUnsafeSlow(chunkBytes);
  }

  give(chunk: Buffer): void {
    this.#free.push(chunk);
  }
}

/**
 * Text appended as UTF-8 straight into a 1 MiB buffer (no joined copy of the text), handed to `emit` when full
 * or flushed, with the whole chunk it lies in (null for a text too large for one, encoded on its own). The next
 * text goes into the buffer `next` returns: the same one when `emit` was done with it at once (a synchronous
 * file write), else one the receiver has not got (a deflater compressing it later gives it back to a ChunkPool).
 */
export class Utf8Chunks {
  #chunk: Buffer;
  #used = 0;
  /**
   * Bytes the current chunk takes before it is handed on: 16 KiB for the first, a whole chunk after. The first
   * flush then comes within a pass's first rows, before V8 optimizes the row loop; else the loop, optimized
   * without having seen a flush, was thrown away at the first 1 MiB and compiled again, on every thread of a
   * build (docs/decisions.md, "Bundle build, tenth pass").
   */
  #limit = firstChunkBytes;

  constructor(
    private readonly emit: (bytes: Buffer, chunk: Buffer | null) => void,
    private readonly next: (emitted: Buffer | null) => Buffer,
  ) {
    this.#chunk = next(null);
  }

  write(text: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: if it cannot fit for sure, flush first (or encode it on its own).
    if (this.#used + text.length * 3 > this.#limit) {
      this.flush();
      if (text.length * 3 > chunkBytes) {
        this.emit(Buffer.from(text, 'utf8'), null);
        return;
      }
    }
    this.#used += this.#chunk.write(text, this.#used, 'utf8');
  }

  /**
   * Writes `text` and a newline, with the text's first `skipBytes` bytes replaced by `head` (ASCII, at least as
   * long), encoding the text once: `see` gets the bytes of the whole `text` (before the replacement) and its
   * answer is returned. A bundle's
   * record line is its hash input with `prev_hash{` replaced by `{"hash":…,`, so the hash is taken over the very
   * bytes the line is written from (range-pass.ts). Null when the text cannot go into one chunk (the caller then
   * writes it as text).
   */
  writeSpliced<T>(text: string, skipBytes: number, head: string, see: (bytes: Buffer) => T): T | null {
    const gap = head.length - skipBytes;
    const room = gap + text.length * 3 + 1;
    if (gap < 0 || room > chunkBytes) return null;
    if (this.#used + room > this.#limit) this.flush();
    const at = this.#used + gap;
    const end = at + this.#chunk.write(text, at, 'utf8');
    const seen = see(this.#chunk.subarray(at, end));
    this.#chunk.write(head, this.#used, 'latin1');
    this.#chunk[end] = 0x0a;
    this.#used = end + 1;
    return seen;
  }

  flush(): void {
    const used = this.#used;
    if (used === 0) return;
    const chunk = this.#chunk;
    this.#used = 0;
    this.#limit = chunkBytes;
    this.emit(chunk.subarray(0, used), chunk);
    this.#chunk = this.next(chunk);
  }
}
