import { writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import yauzl from 'yauzl';
import { ZipFile } from 'yazl';

/** Test helper: every entry of a (trusted, small) ZIP in memory, in archive order. */
export const readAllEntries = async (path: string): Promise<Map<string, Buffer>> => {
  const zip = await yauzl.openPromise(path, { lazyEntries: false });
  const out = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const stream = await zip.openReadStreamPromise(entry);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  zip.close();
  return out;
};

/** Test helper: writes entries with yazl (deflated), e.g. a tampered copy of a bundle. */
export const writeEntries = async (path: string, entries: ReadonlyMap<string, Buffer>): Promise<void> => {
  const zip = new ZipFile();
  for (const [name, data] of entries) zip.addBuffer(data, name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  writeFileSync(path, Buffer.concat(chunks));
};

export type RawEntry = {
  readonly name: string;
  readonly data: Buffer;
  readonly flags?: number;
  /** Upper 16 bits carry the Unix mode (0o120777 for a symlink). */
  readonly externalAttributes?: number;
  /** Declared uncompressed size when it differs from the stored bytes (an encrypted entry has a 12-byte header). */
  readonly uncompressedSize?: number;
};

/**
 * Test helper: a stored (uncompressed) ZIP written byte by byte, so tests can produce what no ZIP library
 * would: `../` and absolute names, backslashes, duplicates, symlinks, the encryption flag.
 */
export const rawZip = (entries: readonly RawEntry[]): Buffer => {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE((entry.flags ?? 0) | 0x800, 6);
    local.writeUInt16LE(0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.uncompressedSize ?? entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE((entry.flags ?? 0) | 0x800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.uncompressedSize ?? entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(entry.externalAttributes ?? (0o100644 << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
};
