import { closeSync, openSync, writeSync } from 'node:fs';
import { type PartDigest, RunningCrc } from './running-crc.ts';
import { chunkBytes, Utf8Chunks } from './utf8-chunks.ts';

/**
 * Text appended to a file as UTF-8, a 1 MiB buffer at a time, by synchronous writes: the segment worker's
 * NDJSON parts (its thread does nothing else meanwhile). Same sink shape as DeflatingFile for the range pass.
 * It CRCs what it writes, so that the building thread need not (crc32-combine.ts), and reports each write's new
 * length to `onWritten` (the worker posts it, so the building thread can read the part while it grows).
 */
export class PlainFile {
  readonly #fd: number;
  // Written synchronously, so each chunk's buffer is reused for the next.
  readonly #text = new Utf8Chunks(
    (bytes) => this.#writeAll(bytes),
    (emitted) => emitted ?? Buffer.allocUnsafeSlow(chunkBytes),
  );
  #open = true;
  readonly #crc = new RunningCrc();

  constructor(
    readonly path: string,
    private readonly onWritten?: (size: number) => void,
  ) {
    this.#fd = openSync(path, 'wx', 0o600);
  }

  write(text: string): void {
    this.#text.write(text);
  }

  /** Utf8Chunks.writeSpliced: a record line encoded once, hashed from its own bytes. */
  writeSpliced<T>(text: string, skipBytes: number, head: string, see: (bytes: Buffer) => T): T | null {
    return this.#text.writeSpliced(text, skipBytes, head, see);
  }

  /** Nothing to wait for: writes are synchronous. */
  async drained(): Promise<void> {}

  #writeAll(bytes: Buffer): void {
    this.#crc.update(bytes);
    let written = 0;
    while (written < bytes.length) written += writeSync(this.#fd, bytes, written, bytes.length - written);
    this.onWritten?.(this.#crc.size);
  }

  /** Flushes and closes; call `close` instead after a failure. */
  finish(): PartDigest {
    this.#text.flush();
    this.close();
    return this.#crc.digest();
  }

  close(): void {
    if (this.#open) closeSync(this.#fd);
    this.#open = false;
  }
}
