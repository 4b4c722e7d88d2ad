import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';

export type EntryDigest = { sha256: string; size: number };
export type ChunkSource = () => AsyncIterable<string | Buffer>;

/**
 * A yazl ZIP whose entries are produced lazily, in order, each hashed (SHA-256) as it is written. Later entries
 * may depend on the digests of earlier ones (the manifest lists them): yazl asks for an entry's stream only
 * when the previous entry is fully written. Output goes to a temp file renamed into place by `finish`.
 */
export class HashingZip {
  readonly digests: Record<string, EntryDigest> = {};
  readonly #zip = new ZipFile();
  readonly #mtime: Date;
  #abort: (error: Error) => void = () => undefined;
  readonly #aborted: Promise<never>;

  constructor(mtime: Date) {
    this.#mtime = mtime;
    this.#aborted = new Promise<never>((_resolve, reject) => {
      this.#abort = reject;
    });
    this.#aborted.catch(() => undefined);
    this.#zip.once('error', (error: Error) => this.#abort(error));
  }

  /** Adds an entry whose bytes come from `source` when its turn comes; `level` 0 stores it uncompressed. */
  add(name: string, source: ChunkSource, level: number): void {
    this.#zip.addReadStreamLazy(name, { mtime: this.#mtime, compressionLevel: level }, (callback) => {
      const digests = this.digests;
      async function* hashed(): AsyncGenerator<Buffer> {
        const hash = createHash('sha256');
        let size = 0;
        for await (const chunk of source()) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          hash.update(bytes);
          size += bytes.length;
          yield bytes;
        }
        digests[name] = { sha256: hash.digest('hex'), size };
      }
      const readable = Readable.from(hashed(), { objectMode: false, highWaterMark: 1 << 20 });
      readable.once('error', (error) => this.#abort(error));
      callback(null, readable);
    });
  }

  /** Writes the archive to `tempPath` and renames it to `finalPath`; on any failure removes the temp file. */
  async finish(tempPath: string, finalPath: string): Promise<void> {
    const file = createWriteStream(tempPath, { mode: 0o644 });
    try {
      this.#zip.end();
      await Promise.race([pipeline(this.#zip.outputStream, file), this.#aborted]);
      renameSync(tempPath, finalPath);
    } catch (error) {
      file.destroy();
      await new Promise((resolve) => file.close(resolve));
      rmSync(tempPath, { force: true });
      throw error;
    }
  }
}

/** A source that yields one computed value (JSON documents, the manifest, the timestamp). */
export const single = (produce: () => string | Buffer | Promise<string | Buffer>): ChunkSource =>
  async function* () {
    yield await produce();
  };
