/**
 * The ZIP container records (APPNOTE 6.3.x) for entries whose bytes are already compressed: local file header,
 * central directory header, end of central directory, with ZIP64 extra fields and records past 4 GiB or 65,535
 * entries. Only what the bundle writer needs: no data descriptors (CRC and sizes are known before the header
 * is written), no encryption, UTF-8 names, regular files with mode 0644, made by Unix like yazl.
 * core/cec/zip-container.test.ts checks the output with `unzip -t`, `zipinfo` and python's zipfile.
 */
export type ContainerEntry = {
  readonly name: string;
  /** 0 stored, 8 deflated. */
  readonly method: 0 | 8;
  readonly crc32: number;
  readonly size: number;
  readonly compressedSize: number;
};

const max32 = 0xffffffff;
const max16 = 0xffff;
const utf8Names = 0x0800;
const madeByUnix = (3 << 8) | 45;
const regularFile0644 = (0o100644 << 16) >>> 0;
const zip64ExtraId = 0x0001;

const needsZip64 = (entry: ContainerEntry, offset: number, force: boolean): boolean =>
  force || entry.size >= max32 || entry.compressedSize >= max32 || offset >= max32;

/** MS-DOS date and time fields in local time, clamped to 1980-2107, as yazl and zip(1) write them. */
/** The ZIP64 extended information extra field: 8-byte sizes (and offset), in the order APPNOTE 4.5.3 fixes. */
const zip64Extra = (values: readonly number[]): Buffer => {
  const extra = Buffer.alloc(4 + 8 * values.length);
  extra.writeUInt16LE(zip64ExtraId, 0);
  extra.writeUInt16LE(8 * values.length, 2);
  for (const [i, value] of values.entries()) extra.writeBigUInt64LE(BigInt(value), 4 + 8 * i);
  return extra;
};

const dosTime = (mtime: Date): { date: number; time: number } => {
  const clamped = new Date(
    Math.min(Math.max(mtime.getTime(), new Date(1980, 0, 1).getTime()), new Date(2107, 11, 31, 23, 59, 58).getTime()),
  );
  return {
    date: (clamped.getDate() & 0x1f) | (((clamped.getMonth() + 1) & 0xf) << 5) | (((clamped.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(clamped.getSeconds() / 2) | ((clamped.getMinutes() & 0x3f) << 5) | ((clamped.getHours() & 0x1f) << 11),
  };
};

/**
 * The block both headers share, from "version needed" to "extra field length" (APPNOTE 4.3.7 and 4.3.12 lay it
 * out identically; it starts at byte 4 of the local header and byte 6 of the central one).
 */
const writeSharedFields = (header: Buffer, at: number, entry: ContainerEntry, zip64: boolean, mtime: Date, name: Buffer, extra: Buffer) => {
  const { date, time } = dosTime(mtime);
  header.writeUInt16LE(zip64 ? 45 : 20, at);
  header.writeUInt16LE(utf8Names, at + 2);
  header.writeUInt16LE(entry.method, at + 4);
  header.writeUInt16LE(time, at + 6);
  header.writeUInt16LE(date, at + 8);
  header.writeUInt32LE(entry.crc32 >>> 0, at + 10);
  header.writeUInt32LE(zip64 ? max32 : entry.compressedSize, at + 14);
  header.writeUInt32LE(zip64 ? max32 : entry.size, at + 18);
  header.writeUInt16LE(name.length, at + 22);
  header.writeUInt16LE(extra.length, at + 24);
};

/** The local file header of an entry starting at `offset`; sizes go to a ZIP64 extra field when needed. */
export const localHeader = (entry: ContainerEntry, offset: number, mtime: Date, forceZip64 = false): Buffer => {
  const name = Buffer.from(entry.name, 'utf8');
  const zip64 = needsZip64(entry, offset, forceZip64);
  const extra = zip64 ? zip64Extra([entry.size, entry.compressedSize]) : Buffer.alloc(0);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  writeSharedFields(header, 4, entry, zip64, mtime, name, extra);
  return Buffer.concat([header, name, extra]);
};

/** The central directory header of an entry whose local header is at `offset`. */
export const centralHeader = (entry: ContainerEntry, offset: number, mtime: Date, forceZip64 = false): Buffer => {
  const name = Buffer.from(entry.name, 'utf8');
  const zip64 = needsZip64(entry, offset, forceZip64);
  const extra = zip64 ? zip64Extra([entry.size, entry.compressedSize, offset]) : Buffer.alloc(0);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(madeByUnix, 4);
  writeSharedFields(header, 6, entry, zip64, mtime, name, extra);
  // comment length, disk number start, internal attributes: 0
  header.writeUInt32LE(regularFile0644, 38);
  header.writeUInt32LE(zip64 ? max32 : offset, 42);
  return Buffer.concat([header, name, extra]);
};

/**
 * The end of the archive for `count` entries whose central directory (`size` bytes) starts at `offset`:
 * ZIP64 end record and locator when any figure overflows the classic fields, then the classic end record.
 */
export const endOfArchive = (count: number, offset: number, size: number, forceZip64 = false): Buffer => {
  const zip64 = forceZip64 || count >= max16 || offset >= max32 || size >= max32;
  const parts: Buffer[] = [];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(0x06064b50, 0);
    record.writeBigUInt64LE(44n, 4); // size of the rest of this record
    record.writeUInt16LE(madeByUnix, 12);
    record.writeUInt16LE(45, 14);
    // this disk, disk with the central directory: 0
    record.writeBigUInt64LE(BigInt(count), 24);
    record.writeBigUInt64LE(BigInt(count), 32);
    record.writeBigUInt64LE(BigInt(size), 40);
    record.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + size), 8);
    locator.writeUInt32LE(1, 16); // total number of disks
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(zip64 ? max16 : count, 8);
  end.writeUInt16LE(zip64 ? max16 : count, 10);
  end.writeUInt32LE(zip64 ? max32 : size, 12);
  end.writeUInt32LE(zip64 ? max32 : offset, 16);
  parts.push(end);
  return Buffer.concat(parts);
};
