import { createHash } from 'node:crypto';
import { createReadStream, renameSync, rmSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';
import type { DeflatedFile } from './deflating-file.ts';
import { type ContainerEntry, centralHeader, endOfArchive, localHeader } from './zip-container.ts';

export type EntryDigest = { sha256: string; size: number };
export type ChunkSource = () => AsyncIterable<string | Buffer>;

const deflateRawAsync = promisify(deflateRaw);

/** An entry's compressed body, ready for the container: in memory, or a temp file of raw deflate data. */
type Produced = ContainerEntry & { readonly sha256: string; readonly body: Buffer | { readonly path: string } };
type Pending = { readonly name: string; readonly produce: () => Promise<Produced> };

/**
 * A ZIP whose entries are produced lazily, in order, each hashed (SHA-256) over its uncompressed bytes. Later
 * entries may depend on the digests of earlier ones (the manifest lists them): an entry's source runs only when
 * the previous entry is written. Big entries arrive already deflated (DeflatingFile, compressed on the thread
 * pool while the segment pass runs); small ones are deflated here. Output goes to a temp file renamed into
 * place by `finish`.
 */
export class HashingZip {
  readonly digests: Record<string, EntryDigest> = {};
  readonly #pending: Pending[] = [];
  readonly #mtime: Date;
  readonly #forceZip64: boolean;

  /** `forceZip64` writes ZIP64 records even for small archives (tests of the > 4 GiB layout). */
  constructor(mtime: Date, options: { forceZip64?: boolean } = {}) {
    this.#mtime = mtime;
    this.#forceZip64 = options.forceZip64 ?? false;
  }

  /** Adds a small entry whose bytes come from `source` when its turn comes; `level` 0 stores it uncompressed. */
  add(name: string, source: ChunkSource, level: number): void {
    this.#pending.push({
      name,
      produce: async () => {
        const chunks: Buffer[] = [];
        for await (const chunk of source()) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
        const bytes = Buffer.concat(chunks);
        const body = level === 0 ? bytes : await deflateRawAsync(bytes, { level });
        return {
          name,
          method: level === 0 ? 0 : 8,
          crc32: crc32(bytes),
          size: bytes.length,
          compressedSize: body.length,
          sha256: createHash('sha256').update(bytes).digest('hex'),
          body,
        };
      },
    });
  }

  /** Adds an entry deflated beforehand into a temp file (its digest and CRC were computed on the way). */
  addDeflated(name: string, file: () => Promise<DeflatedFile>): void {
    this.#pending.push({
      name,
      produce: async () => {
        const done = await file();
        return { name, method: 8, ...done, body: { path: done.path } };
      },
    });
  }

  /** Writes the archive to `tempPath` and renames it to `finalPath`; on any failure removes the temp file. */
  async finish(tempPath: string, finalPath: string): Promise<void> {
    const handle = await open(tempPath, 'w', 0o644);
    try {
      let offset = 0;
      const write = async (bytes: Buffer): Promise<void> => {
        await writeAll(handle, bytes);
        offset += bytes.length;
      };
      const central: Buffer[] = [];
      for (const pending of this.#pending) {
        const entry = await pending.produce();
        this.digests[entry.name] = { sha256: entry.sha256, size: entry.size };
        central.push(centralHeader(entry, offset, this.#mtime, this.#forceZip64));
        await write(localHeader(entry, offset, this.#mtime, this.#forceZip64));
        const start = offset;
        if (Buffer.isBuffer(entry.body)) await write(entry.body);
        else for await (const chunk of createReadStream(entry.body.path, { highWaterMark: 1 << 20 })) await write(chunk as Buffer);
        if (offset - start !== entry.compressedSize) throw new Error(`entry ${entry.name}: body changed while the archive was written`);
      }
      const directory = Buffer.concat(central);
      const directoryOffset = offset;
      await write(directory);
      await write(endOfArchive(central.length, directoryOffset, directory.length, this.#forceZip64));
      await handle.close();
      renameSync(tempPath, finalPath);
    } catch (error) {
      await handle.close().catch(() => undefined);
      rmSync(tempPath, { force: true });
      throw error;
    }
  }
}

const writeAll = async (handle: FileHandle, bytes: Buffer): Promise<void> => {
  let written = 0;
  while (written < bytes.length) written += (await handle.write(bytes, written, bytes.length - written)).bytesWritten;
};

/** A source that yields one computed value (JSON documents, the manifest, the timestamp). */
export const single = (produce: () => string | Buffer | Promise<string | Buffer>): ChunkSource =>
  async function* () {
    yield await produce();
  };
