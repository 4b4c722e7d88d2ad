import { createHash } from 'node:crypto';
import { createWriteStream, statSync } from 'node:fs';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { type PartDigest, RunningCrc } from './running-crc.ts';
import { type ChunkPool, Utf8Chunks } from './utf8-chunks.ts';

/** A finished entry body: raw deflate data in `path`, with the digest, CRC and size of the uncompressed bytes. */
export type DeflatedFile = {
  readonly path: string;
  readonly sha256: string;
  readonly crc32: number;
  readonly size: number;
  readonly compressedSize: number;
};

/**
 * The deflate window of the NDJSON entries, 8 KiB (2^13) rather than zlib's 32 KiB. A record repeats what the
 * records just before it hold, so on evidence NDJSON (50k varied records, docs/decisions.md "Bundle build, ninth
 * pass") the small window deflated 26% faster at level 1 and 40% faster at level 6, and the output came out 1-3%
 * smaller, not larger: zlib's window and its match history then stay in the core's cache. Any inflater reads it
 * (a deflate stream never refers further back than its window; RFC 1951 allows any up to 32 KiB).
 */
const windowBits = 13;

/**
 * An append-only ZIP entry body compressed while it is written: text is buffered, encoded, hashed (SHA-256 and
 * CRC-32 of the uncompressed bytes) and passed to a raw-deflate stream writing a temp file. zlib runs each
 * stream's work on the libuv thread pool, so several of these (the six NDJSON folders) compress in parallel
 * with each other and with the caller's loop; `drained()` is the back-pressure that keeps memory flat.
 */
export class DeflatingFile {
  readonly #deflate: DeflateRaw;
  readonly #written: Promise<void>;
  readonly #hash = createHash('sha256');
  readonly #crc = new RunningCrc();

  readonly #text: Utf8Chunks;

  /** `pool`: the chunks it encodes into come from it, and go back once compressed (shared by a build's files). */
  constructor(
    readonly path: string,
    level: number,
    private readonly pool: ChunkPool,
  ) {
    this.#text = new Utf8Chunks(
      (bytes, chunk) => this.#deliver(bytes, true, chunk),
      () => pool.take(),
    );
    // Output buffers of 256 KB, not 16 KB: one callback and one file write per input chunk rather than ten.
    this.#deflate = createDeflateRaw({ level, chunkSize: 256 * 1024, windowBits });
    this.#written = pipeline(this.#deflate, createWriteStream(path, { mode: 0o600 }));
    this.#written.catch(() => undefined); // surfaced by drained() and finish()
  }

  /** Appends text, UTF-8 encoded straight into the current chunk (no joined copy of the text). */
  write(text: string): void {
    this.#text.write(text);
  }

  /** Utf8Chunks.writeSpliced: a record line encoded once, hashed from its own bytes. */
  writeSpliced<T>(text: string, skipBytes: number, head: string, see: (bytes: Buffer) => T): T | null {
    return this.#text.writeSpliced(text, skipBytes, head, see);
  }

  /**
   * Appends bytes already encoded (the upper part of a split pass, read back from its file), after the text so
   * far. `crcLater`: their writer CRC'd them, and the caller adds that CRC with `addCrc` once they are all in.
   * `chunk`: the pool's buffer they lie in, given back once they are compressed.
   */
  append(bytes: Buffer, crcLater: boolean, chunk: Buffer): void {
    this.#text.flush();
    if (bytes.length > 0) this.#deliver(bytes, !crcLater, chunk);
    else this.pool.give(chunk);
  }

  /** Extends the CRC-32 by that of a part appended with `crcLater` (nothing may be written in between). */
  addCrc(part: PartDigest): void {
    this.#crc.combine(part);
  }

  #deliver(bytes: Buffer, checksum: boolean, chunk: Buffer | null): void {
    this.#hash.update(bytes);
    this.#crc.update(bytes, checksum);
    // The write's callback runs once zlib has taken in all of `bytes` (it copies them into its window).
    if (chunk === null) this.#deflate.write(bytes);
    else this.#deflate.write(bytes, () => this.pool.give(chunk));
  }

  /** Resolves once the deflater has room again (rejects if compressing or writing failed). */
  async drained(): Promise<void> {
    if (this.#deflate.writableNeedDrain) await Promise.race([once(this.#deflate, 'drain'), this.#written]);
  }

  /** Flushes, ends the stream and waits for the temp file; returns the entry body. */
  async finish(): Promise<DeflatedFile> {
    this.#text.flush();
    this.#deflate.end();
    await this.#written;
    return {
      path: this.path,
      sha256: this.#hash.digest('hex'),
      ...this.#crc.digest(),
      compressedSize: statSync(this.path).size,
    };
  }

  /** Stops compressing after a failure (the caller removes the temp directory). */
  destroy(): void {
    this.#deflate.destroy();
  }
}
