import { createHash, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import type { VerifyLimits } from './verify-limits.ts';

/** Thrown for a hostile or broken archive; the verifier turns it into an `archive` check error. */
export class ArchiveError extends Error {}

export type SafeEntry = { readonly name: string; readonly entry: Entry };

const unixMode = (entry: Entry): number => (entry.externalFileAttributes >>> 16) & 0o170000;

/** Why an entry name or header is unsafe, or null. */
export const unsafeEntryReason = (name: string, entry: Entry): string | null => {
  if (name.includes('\\')) return `entry "${name}" contains a backslash`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `entry "${name}" has an absolute path`;
  if (name.split('/').some((part) => part === '..')) return `entry "${name}" escapes the archive (..)`;
  if (name.includes('\0') || name === '') return 'entry with an empty or NUL-containing name';
  if (unixMode(entry) === 0o120000) return `entry "${name}" is a symbolic link`;
  if ((entry.generalPurposeBitFlag & 0x1) !== 0) return `entry "${name}" is encrypted`;
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    return `entry "${name}" uses unsupported compression method ${entry.compressionMethod}`;
  }
  return null;
};

/** Opens an archive for random access; yauzl validates the central directory and inflated sizes. */
export const openArchive = (path: string): Promise<ZipFile> =>
  new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, zip) =>
      error === null ? resolve(zip) : reject(new ArchiveError(`not a readable ZIP archive: ${error.message}`)),
    );
  });

/**
 * Reads the central directory: refuses too many entries, unsafe names, links, encryption, duplicates and a
 * declared total beyond the cap. Names are decoded here (decodeStrings off) so every problem gets our message.
 */
export const listEntries = (zip: ZipFile, limits: VerifyLimits): Promise<SafeEntry[]> =>
  new Promise((resolve, reject) => {
    if (zip.entryCount > limits.maxEntries) {
      reject(new ArchiveError(`archive has ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`));
      return;
    }
    const entries: SafeEntry[] = [];
    const seen = new Set<string>();
    let declared = 0;
    zip.on('error', (error: Error) => reject(new ArchiveError(`corrupt or truncated archive: ${error.message}`)));
    zip.on('end', () => resolve(entries));
    zip.on('entry', (entry: Entry) => {
      const raw = entry.fileName as unknown;
      const name = Buffer.isBuffer(raw) ? raw.toString('utf8') : String(raw);
      const reason = unsafeEntryReason(name, entry);
      if (reason !== null) return reject(new ArchiveError(reason));
      if (seen.has(name)) return reject(new ArchiveError(`duplicate entry "${name}"`));
      seen.add(name);
      declared += entry.uncompressedSize;
      if (declared > limits.maxTotalUncompressed) {
        return reject(new ArchiveError('archive declares more uncompressed data than allowed (zip bomb?)'));
      }
      entries.push({ name, entry });
      zip.readEntry();
      return undefined;
    });
    zip.readEntry();
  });

/** Counts inflated bytes across the whole verification (total cap) and per entry (ratio cap). */
export class InflateBudget {
  #total = 0;
  constructor(readonly limits: VerifyLimits) {}

  /** Accounts for `bytes` more of `entry`; throws ArchiveError past a cap. */
  charge(name: string, entry: Entry, entryBytesSoFar: number, bytes: number): void {
    this.#total += bytes;
    if (this.#total > this.limits.maxTotalUncompressed) {
      throw new ArchiveError('archive inflates beyond the total size cap (zip bomb?)');
    }
    const ratio = entryBytesSoFar / Math.max(entry.compressedSize, 1);
    if (entryBytesSoFar > this.limits.ratioGrace && ratio > this.limits.maxRatio) {
      throw new ArchiveError(`entry "${name}" inflates more than ${this.limits.maxRatio}:1 (zip bomb?)`);
    }
  }
}

const openStream = (zip: ZipFile, item: SafeEntry): Promise<Readable> =>
  new Promise((resolve, reject) => {
    zip.openReadStream(item.entry, (error, stream) =>
      error === null ? resolve(stream) : reject(new ArchiveError(`cannot read entry "${item.name}": ${error.message}`)),
    );
  });

/** Reads a whole entry into memory, refusing it past `cap` bytes (counted while inflating). */
export const readEntry = async (zip: ZipFile, item: SafeEntry, cap: number, budget: InflateBudget): Promise<Buffer> => {
  if (item.entry.uncompressedSize > cap) throw new ArchiveError(`entry "${item.name}" is larger than ${cap} bytes`);
  const stream = await openStream(zip, item);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      budget.charge(item.name, item.entry, size, chunk.length);
      if (size > cap) throw new ArchiveError(`entry "${item.name}" is larger than ${cap} bytes`);
      chunks.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    throw error instanceof ArchiveError ? error : new ArchiveError(`entry "${item.name}": ${(error as Error).message}`);
  }
  return Buffer.concat(chunks, size);
};

/** Pulls the lines of an NDJSON entry one at a time, hashing the raw bytes and capping line length. */
export class LineReader {
  readonly hash: Hash = createHash('sha256');
  size = 0;
  #iterator: AsyncIterator<Buffer> | null = null;
  #pending = '';
  #decoder = new StringDecoder('utf8');
  #lines: string[] = [];
  #index = 0;
  #done = false;

  constructor(
    readonly zip: ZipFile,
    readonly item: SafeEntry,
    readonly budget: InflateBudget,
  ) {}

  /** The next non-empty line if one is already buffered (no await), else undefined. */
  nextBuffered(): string | undefined {
    while (this.#index < this.#lines.length) {
      const line = this.#lines[this.#index] as string;
      this.#index += 1;
      if (line !== '') return line;
    }
    return undefined;
  }

  /** The next non-empty line, or null at the end of the entry. */
  async next(): Promise<string | null> {
    for (;;) {
      while (this.#index < this.#lines.length) {
        const line = this.#lines[this.#index] as string;
        this.#index += 1;
        if (line !== '') return line;
      }
      if (this.#done) return null;
      this.#lines = [];
      this.#index = 0;
      await this.#fill();
    }
  }

  async #fill(): Promise<void> {
    if (this.#iterator === null) {
      const stream = await openStream(this.zip, this.item);
      this.#iterator = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    }
    let step: IteratorResult<Buffer>;
    try {
      step = await this.#iterator.next();
    } catch (error) {
      throw new ArchiveError(`entry "${this.item.name}": ${(error as Error).message}`, { cause: error });
    }
    if (step.done === true) {
      this.#done = true;
      this.#pending += this.#decoder.end();
      if (this.#pending !== '') this.#lines.push(this.#pending);
      this.#pending = '';
      return;
    }
    const chunk = step.value;
    this.size += chunk.length;
    this.budget.charge(this.item.name, this.item.entry, this.size, chunk.length);
    this.hash.update(chunk);
    const parts = (this.#pending + this.#decoder.write(chunk)).split('\n');
    this.#pending = parts.pop() ?? '';
    if (this.#pending.length > this.budget.limits.maxLineBytes) {
      throw new ArchiveError(`entry "${this.item.name}" has a line longer than ${this.budget.limits.maxLineBytes} bytes`);
    }
    this.#lines = parts;
  }

  /** Stops reading early (on a fatal error elsewhere). */
  async close(): Promise<void> {
    await this.#iterator?.return?.();
  }
}
