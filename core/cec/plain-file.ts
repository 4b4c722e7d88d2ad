import { closeSync, openSync, writeSync } from 'node:fs';

const chunkBytes = 1 << 20;

/**
 * Text appended to a file as UTF-8, a 1 MiB buffer at a time, by synchronous writes: the segment worker's
 * NDJSON parts (its thread does nothing else meanwhile). Same sink shape as DeflatingFile for the range pass.
 */
export class PlainFile {
  readonly #fd: number;
  readonly #chunk = Buffer.allocUnsafe(chunkBytes);
  #used = 0;
  #open = true;

  constructor(readonly path: string) {
    this.#fd = openSync(path, 'wx', 0o600);
  }

  write(text: string): void {
    if (this.#used + text.length * 3 > chunkBytes) {
      this.#flush();
      if (text.length * 3 > chunkBytes) {
        this.#writeAll(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.#used += this.#chunk.write(text, this.#used, 'utf8');
  }

  /** Nothing to wait for: writes are synchronous. */
  async drained(): Promise<void> {}

  #flush(): void {
    this.#writeAll(this.#chunk.subarray(0, this.#used));
    this.#used = 0;
  }

  #writeAll(bytes: Buffer): void {
    let written = 0;
    while (written < bytes.length) written += writeSync(this.#fd, bytes, written, bytes.length - written);
  }

  /** Flushes and closes; call `close` instead after a failure. */
  finish(): void {
    this.#flush();
    this.close();
  }

  close(): void {
    if (this.#open) closeSync(this.#fd);
    this.#open = false;
  }
}
