/**
 * Reads entry data from an archive opened by ./zip-strict.ts. Every byte is counted as it inflates: reading
 * stops the moment an entry passes its declared size (which the verifier first checks against the manifest),
 * so a bomb costs time proportional to the size the manifest lists. CRC-32 and SHA-256 are computed on the way.
 */
import { createHash, type Hash } from 'node:crypto';
import { read } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32, createInflateRaw } from 'node:zlib';
import { ArchiveError } from './zip-errors.ts';
import type { StrictZip, ZipEntry } from './zip-strict.ts';

export { ArchiveError, UnreadableArchiveError } from './zip-errors.ts';

const readAt = promisify(read);
/** Positional read size; with one chunk queued per entry, six folders read side by side stay a few MiB. */
const chunkSize = 256 * 1024;

/** One pass over one entry's data; after it completes, `sha256` and `size` describe what was read. */
export class EntryReader {
  readonly #hash: Hash = createHash('sha256');
  #crc = 0;
  size = 0;

  constructor(
    readonly zip: Pick<StrictZip, 'fd'>,
    readonly entry: ZipEntry,
  ) {}

  /** Hex SHA-256 of the inflated bytes (call once, after the chunks are consumed). */
  sha256(): string {
    return this.#hash.digest('hex');
  }

  async *#compressed(): AsyncGenerator<Buffer> {
    const end = this.entry.dataOffset + this.entry.compressedSize;
    for (let position = this.entry.dataOffset; position < end; ) {
      const buffer = Buffer.allocUnsafe(Math.min(chunkSize, end - position));
      const { bytesRead } = await readAt(this.zip.fd, buffer, 0, buffer.length, position);
      if (bytesRead !== buffer.length) throw new ArchiveError(`entry ${JSON.stringify(this.entry.name)} is truncated`);
      position += bytesRead;
      yield buffer;
    }
  }

  #account(chunk: Buffer): Buffer {
    this.size += chunk.length;
    if (this.size > this.entry.uncompressedSize)
      throw new ArchiveError(
        `entry ${JSON.stringify(this.entry.name)} inflates past its declared ${this.entry.uncompressedSize} bytes (zip bomb?)`,
      );
    this.#hash.update(chunk);
    this.#crc = crc32(chunk, this.#crc);
    return chunk;
  }

  /** The inflated bytes; throws ArchiveError past the declared size, on a bad stream, size or CRC. */
  async *chunks(): AsyncGenerator<Buffer> {
    const name = JSON.stringify(this.entry.name);
    if (this.entry.method === 0) {
      for await (const chunk of this.#compressed()) yield this.#account(chunk);
    } else {
      const inflater = createInflateRaw({ chunkSize: 256 * 1024 });
      const feeding = pipeline(Readable.from(this.#compressed(), { highWaterMark: 1 }), inflater).catch(() => undefined);
      try {
        for await (const chunk of inflater as AsyncIterable<Buffer>) yield this.#account(chunk);
      } catch (error) {
        throw error instanceof ArchiveError ? error : new ArchiveError(`entry ${name}: ${(error as Error).message}`, { cause: error });
      } finally {
        inflater.destroy();
        await feeding;
      }
      if (inflater.bytesWritten !== this.entry.compressedSize)
        throw new ArchiveError(`entry ${name}: deflate stream ends before its data does`);
    }
    if (this.size !== this.entry.uncompressedSize)
      throw new ArchiveError(`entry ${name} holds ${this.size} bytes, not the declared ${this.entry.uncompressedSize}`);
    if (this.#crc >>> 0 !== this.entry.crc32) throw new ArchiveError(`entry ${name} fails its CRC-32 check`);
  }
}

/** Reads a whole entry into memory, refusing one declared larger than `cap` before reading a byte. */
export const readEntry = async (zip: StrictZip, entry: ZipEntry, cap: number): Promise<Buffer> => {
  if (entry.uncompressedSize > cap) throw new ArchiveError(`entry ${JSON.stringify(entry.name)} is larger than ${cap} bytes`);
  const chunks: Buffer[] = [];
  for await (const chunk of new EntryReader(zip, entry).chunks()) chunks.push(chunk);
  return Buffer.concat(chunks);
};

/**
 * Splits an NDJSON entry into lines on its bytes as it inflates: a line is `buffer[start, end)`, a view into the
 * inflated chunk (only a line that straddles two chunks is copied). Empty lines are skipped. Reading is pulled:
 * `next()` answers from the current chunk without awaiting; when it returns false, `fill()` reads on.
 */
export class LineSplitter {
  readonly reader: EntryReader;
  buffer: Buffer = Buffer.alloc(0);
  start = 0;
  end = 0;
  #chunk: Buffer = Buffer.alloc(0);
  #at = 0;
  #carry: Buffer[] = [];
  #carried = 0;
  #iterator: AsyncIterator<Buffer> | null = null;
  #done = false;

  constructor(
    zip: Pick<StrictZip, 'fd'>,
    entry: ZipEntry,
    readonly maxLineBytes: number,
  ) {
    this.reader = new EntryReader(zip, entry);
  }

  /** True once the entry is read to its end and every line was returned. */
  get done(): boolean {
    return this.#done && this.#at >= this.#chunk.length;
  }

  #tooLong(): ArchiveError {
    return new ArchiveError(`entry ${JSON.stringify(this.reader.entry.name)} has a line longer than ${this.maxLineBytes} bytes`);
  }

  /** Moves to the next non-empty line of the current chunk; false when the chunk has no complete line left. */
  next(): boolean {
    const chunk = this.#chunk;
    while (this.#at < chunk.length) {
      const newline = chunk.indexOf(10, this.#at);
      if (newline < 0) {
        if (this.#done) return this.#line(chunk, this.#at, chunk.length);
        this.#carry.push(chunk.subarray(this.#at));
        this.#carried += chunk.length - this.#at;
        this.#at = chunk.length;
        if (this.#carried > this.maxLineBytes) throw this.#tooLong();
        return false;
      }
      const start = this.#at;
      this.#at = newline + 1;
      if (this.#line(chunk, start, newline)) return true;
    }
    return false;
  }

  /** Sets the current line (joining a carried head); false for an empty one. */
  #line(chunk: Buffer, start: number, end: number): boolean {
    this.#at = Math.max(this.#at, end);
    if (this.#carried > 0) {
      this.#carry.push(chunk.subarray(start, end));
      this.buffer = Buffer.concat(this.#carry);
      this.#carry = [];
      this.#carried = 0;
      this.start = 0;
      this.end = this.buffer.length;
    } else {
      this.buffer = chunk;
      this.start = start;
      this.end = end;
    }
    if (this.end - this.start > this.maxLineBytes) throw this.#tooLong();
    return this.end > this.start;
  }

  /** Reads the next inflated chunk (at the end of the entry, the carried tail becomes the last line). */
  async fill(): Promise<void> {
    this.#iterator ??= this.reader.chunks();
    const step = await this.#iterator.next();
    if (step.done === true) {
      this.#done = true;
      this.#chunk = Buffer.alloc(0);
      this.#at = 0;
      if (this.#carried > 0) {
        this.#chunk = Buffer.concat(this.#carry);
        this.#carry = [];
        this.#carried = 0;
      }
      return;
    }
    this.#chunk = step.value;
    this.#at = 0;
  }

  /** Stops reading early (on a fatal error elsewhere). */
  async close(): Promise<void> {
    await this.#iterator?.return?.(undefined);
  }
}
