/** Text is encoded into buffers of this many bytes and handed on one buffer at a time. */
const chunkBytes = 1 << 20;

/**
 * Text appended as UTF-8 straight into a 1 MiB buffer (no joined copy of the text), handed to `emit` when full
 * or flushed. `keeps`: the receiver holds on to each buffer (a deflater compressing it later), so the next text
 * goes into a fresh one; otherwise (a synchronous file write) the buffer is reused.
 */
export class Utf8Chunks {
  #chunk = Buffer.allocUnsafe(chunkBytes);
  #used = 0;

  constructor(
    private readonly emit: (bytes: Buffer) => void,
    private readonly keeps: boolean,
  ) {}

  write(text: string): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: if it cannot fit for sure, flush first (or encode it on its own).
    if (this.#used + text.length * 3 > chunkBytes) {
      this.flush();
      if (text.length * 3 > chunkBytes) {
        this.emit(Buffer.from(text, 'utf8'));
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
    if (this.#used + room > chunkBytes) this.flush();
    const at = this.#used + gap;
    const end = at + this.#chunk.write(text, at, 'utf8');
    const seen = see(this.#chunk.subarray(at, end));
    this.#chunk.write(head, this.#used, 'latin1');
    this.#chunk[end] = 0x0a;
    this.#used = end + 1;
    return seen;
  }

  flush(): void {
    if (this.#used === 0) return;
    const bytes = this.#chunk.subarray(0, this.#used);
    if (this.keeps) this.#chunk = Buffer.allocUnsafe(chunkBytes);
    this.#used = 0;
    this.emit(bytes);
  }
}
