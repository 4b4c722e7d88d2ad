/**
 * The strict reader for untrusted ZIPs: parses the end records, the central directory and every local header
 * itself (positional reads, no ZIP library) and refuses any archive that another tool could read differently.
 * Reading entry data is in ./zip-reader.ts. The rules are listed in docs/decisions.md ("Verifier (issue 10)").
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ArchiveError, UnreadableArchiveError } from './zip-errors.ts';
import { collisionKey, decodeName, unsafeNameReason } from './zip-names.ts';

export type ZipEntry = {
  readonly name: string;
  readonly method: 0 | 8;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  /** Offset of the first byte of the (compressed) data. */
  readonly dataOffset: number;
};

export type StrictZip = {
  readonly fd: number;
  /** File entries by name; directory entries (name ending in `/`, no data) are validated and then dropped. */
  readonly files: ReadonlyMap<string, ZipEntry>;
  close(): void;
};

export type ZipLimits = { readonly maxEntries: number; readonly maxTotalUncompressed: number };

const SIG = {
  local: 0x04034b50,
  central: 0x02014b50,
  eocd: 0x06054b50,
  zip64Eocd: 0x06064b50,
  locator: 0x07064b50,
  descriptor: 0x08074b50,
};
const EOCD_SIZE = 22;
const LOCATOR_SIZE = 20;
const ZIP64_EOCD_SIZE = 56;
const U16_MAX = 0xffff;
const U32_MAX = 0xffffffff;
/** Flag bits with one meaning for every reader: deflate options (1, 2), data descriptor (3), UTF-8 names (11). */
const allowedFlags = 0x0002 | 0x0004 | 0x0008 | 0x0800;
const encryptionFlags = 0x0001 | 0x0040 | 0x2000;
/** 64 entries of short names need a few KiB; a 1 MiB central directory is refused as hostile. */
const maxCentralDirectory = 1024 * 1024;

const fail = (message: string): never => {
  throw new ArchiveError(message);
};

const readAt = (fd: number, position: number, length: number): Buffer => {
  const buffer = Buffer.alloc(length);
  const read = length === 0 ? 0 : readSync(fd, buffer, 0, length, position);
  if (read !== length) fail('archive is truncated');
  return buffer;
};

const u64 = (buffer: Buffer, offset: number): number => {
  const value = buffer.readBigUInt64LE(offset);
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? fail('archive declares a size beyond 2^53') : Number(value);
};

type Directory = { count: number; size: number; offset: number; end: number };

/** The end records: EOCD (no comment, at the very end), and the ZIP64 locator + record when present. */
const readEnd = (fd: number, fileSize: number): Directory => {
  if (fileSize < EOCD_SIZE) throw new UnreadableArchiveError('file is too short to be a ZIP archive');
  const eocdAt = fileSize - EOCD_SIZE;
  const eocd = readAt(fd, eocdAt, EOCD_SIZE);
  if (eocd.readUInt32LE(0) !== SIG.eocd || eocd.readUInt16LE(20) !== 0) {
    const tail = readAt(fd, Math.max(0, fileSize - EOCD_SIZE - U16_MAX), Math.min(fileSize, EOCD_SIZE + U16_MAX));
    if (tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0) throw new UnreadableArchiveError('no end-of-central-directory record');
    fail('archive has a comment or bytes after the end-of-central-directory record');
  }
  if (eocd.readUInt16LE(4) !== 0 || eocd.readUInt16LE(6) !== 0) fail('multi-disk archives are not supported');
  const count16 = eocd.readUInt16LE(10);
  if (eocd.readUInt16LE(8) !== count16) fail('EOCD entry counts disagree');
  const end: Directory = { count: count16, size: eocd.readUInt32LE(12), offset: eocd.readUInt32LE(16), end: eocdAt };
  const locator = eocdAt >= LOCATOR_SIZE ? readAt(fd, eocdAt - LOCATOR_SIZE, LOCATOR_SIZE) : null;
  if (locator === null || locator.readUInt32LE(0) !== SIG.locator) {
    if (count16 === U16_MAX || end.size === U32_MAX || end.offset === U32_MAX) fail('EOCD points to a ZIP64 record that is missing');
    return end;
  }
  if (locator.readUInt32LE(4) !== 0 || locator.readUInt32LE(16) !== 1) fail('multi-disk archives are not supported');
  const recordAt = u64(locator, 8);
  if (recordAt + ZIP64_EOCD_SIZE !== eocdAt - LOCATOR_SIZE) fail('ZIP64 end record is not right before its locator');
  const record = readAt(fd, recordAt, ZIP64_EOCD_SIZE);
  if (record.readUInt32LE(0) !== SIG.zip64Eocd || u64(record, 4) !== ZIP64_EOCD_SIZE - 12) fail('malformed ZIP64 end record');
  if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0 || u64(record, 24) !== u64(record, 32))
    fail('multi-disk archives are not supported');
  const zip64: Directory = { count: u64(record, 32), size: u64(record, 40), offset: u64(record, 48), end: recordAt };
  const agrees = (small: number, big: number, max: number) => small === max || small === big;
  if (!agrees(count16, zip64.count, U16_MAX) || !agrees(end.size, zip64.size, U32_MAX) || !agrees(end.offset, zip64.offset, U32_MAX))
    fail('EOCD and ZIP64 end record disagree');
  return zip64;
};

type Extras = { zip64: Buffer | null; unicodePath: Buffer | null };

/** Parses an extra field block: records must tile it exactly, no id twice. */
const parseExtras = (block: Buffer, where: string): Extras => {
  const seen = new Set<number>();
  const extras: Extras = { zip64: null, unicodePath: null };
  let pos = 0;
  while (pos < block.length) {
    if (pos + 4 > block.length) fail(`${where}: malformed extra field`);
    const id = block.readUInt16LE(pos);
    const size = block.readUInt16LE(pos + 2);
    if (pos + 4 + size > block.length) fail(`${where}: malformed extra field`);
    if (seen.has(id)) fail(`${where}: extra field 0x${id.toString(16)} appears twice`);
    seen.add(id);
    const data = block.subarray(pos + 4, pos + 4 + size);
    if (id === 0x0001) extras.zip64 = data;
    if (id === 0x7075) extras.unicodePath = data;
    pos += 4 + size;
  }
  return extras;
};

/** An Info-ZIP Unicode Path field (0x7075) may only repeat the header name: other tools would show its name. */
const checkUnicodePath = (extras: Extras, rawName: Buffer, where: string): void => {
  const field = extras.unicodePath;
  if (field === null) return;
  if (field.length < 5 || field[0] !== 1 || !field.subarray(5).equals(rawName))
    fail(`${where}: Info-ZIP Unicode Path field names another file than the header`);
};

/** Sizes/offset, with ZIP64 extra values replacing the 0xFFFFFFFF placeholders in the order APPNOTE fixes. */
const resolveZip64 = (
  values: { usize: number; csize: number; offset?: number },
  extras: Extras,
  where: string,
): { usize: number; csize: number; offset: number } => {
  const out = { usize: values.usize, csize: values.csize, offset: values.offset ?? 0 };
  const field = extras.zip64;
  let pos = 0;
  const next = (): number => {
    if (field === null || pos + 8 > field.length) return fail(`${where}: ZIP64 field is missing or short`);
    pos += 8;
    return u64(field, pos - 8);
  };
  if (out.usize === U32_MAX) out.usize = next();
  if (out.csize === U32_MAX) out.csize = next();
  if (values.offset === U32_MAX) out.offset = next();
  return out;
};

type Central = ZipEntry & { rawName: Buffer; flags: number; localOffset: number; zip64: boolean; directory: boolean };

const entryKind = (madeBy: number, external: number, name: string): 'file' | 'directory' | string => {
  const mode = (external >>> 16) & 0o170000;
  if (mode === 0o120000) return `entry ${JSON.stringify(name)} is a symbolic link`;
  if (mode !== 0 && mode !== 0o100000 && mode !== 0o040000) return `entry ${JSON.stringify(name)} is a special file`;
  const dosDirectory = madeBy >> 8 === 0 && (external & 0x10) !== 0;
  return name.endsWith('/') || mode === 0o040000 || dosDirectory ? 'directory' : 'file';
};

const parseCentral = (directory: Buffer, at: number): { entry: Central; length: number } => {
  if (at + 46 > directory.length || directory.readUInt32LE(at) !== SIG.central) fail('central directory is malformed');
  const nameLength = directory.readUInt16LE(at + 28);
  const extraLength = directory.readUInt16LE(at + 30);
  const commentLength = directory.readUInt16LE(at + 32);
  const length = 46 + nameLength + extraLength + commentLength;
  if (at + length > directory.length) fail('central directory is malformed');
  const rawName = directory.subarray(at + 46, at + 46 + nameLength);
  const flags = directory.readUInt16LE(at + 8);
  const decoded = decodeName(rawName, (flags & 0x0800) !== 0);
  if (typeof decoded !== 'string') return fail(decoded.error);
  const name = decoded;
  const unsafe = unsafeNameReason(name);
  if (unsafe !== null) fail(unsafe);
  const where = `entry ${JSON.stringify(name)}`;
  if ((flags & encryptionFlags) !== 0) fail(`${where} is encrypted`);
  if ((flags & ~allowedFlags) !== 0) fail(`${where} uses unsupported flags 0x${flags.toString(16)}`);
  const rawMethod = directory.readUInt16LE(at + 10);
  if (rawMethod !== 0 && rawMethod !== 8) fail(`${where} uses unsupported compression method ${rawMethod}`);
  const method = rawMethod === 8 ? 8 : 0;
  if (commentLength !== 0) fail(`${where} has a comment`);
  if (directory.readUInt16LE(at + 34) !== 0) fail('multi-disk archives are not supported');
  const extras = parseExtras(directory.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength), where);
  checkUnicodePath(extras, rawName, where);
  const sizes = resolveZip64(
    { usize: directory.readUInt32LE(at + 24), csize: directory.readUInt32LE(at + 20), offset: directory.readUInt32LE(at + 42) },
    extras,
    where,
  );
  const kind = entryKind(directory.readUInt16LE(at + 4), directory.readUInt32LE(at + 38), name);
  if (kind !== 'file' && kind !== 'directory') fail(kind);
  if (kind === 'directory' && (!name.endsWith('/') || sizes.usize !== 0 || sizes.csize !== 0))
    fail(`${where} is a directory entry with data or without a trailing slash`);
  if (kind === 'file' && name.endsWith('/')) fail(`${where} ends in "/" but is not a directory`);
  if (method === 0 && sizes.csize !== sizes.usize) fail(`${where} is stored but its sizes differ`);
  // Deflate never needs much more than the data it encodes: a bigger stream is padding or a decoy.
  if (method === 8 && sizes.csize > sizes.usize + (sizes.usize >> 10) + 64) fail(`${where} has more compressed data than its size needs`);
  const entry: Central = {
    name,
    method,
    crc32: directory.readUInt32LE(at + 16),
    compressedSize: sizes.csize,
    uncompressedSize: sizes.usize,
    dataOffset: 0,
    rawName,
    flags,
    localOffset: sizes.offset,
    zip64: extras.zip64 !== null,
    directory: kind === 'directory',
  };
  return { entry, length };
};

/**
 * Checks the local header of `entry` against its central record and returns where its region (header, data,
 * optional data descriptor) ends.
 */
const checkLocal = (fd: number, entry: Central, limit: number): { dataOffset: number; end: number } => {
  const where = `entry ${JSON.stringify(entry.name)}`;
  const header = readAt(fd, entry.localOffset, Math.min(30, Math.max(0, limit - entry.localOffset)));
  if (header.length < 30 || header.readUInt32LE(0) !== SIG.local) fail(`${where}: no local header where the central directory points`);
  const nameLength = header.readUInt16LE(26);
  const extraLength = header.readUInt16LE(28);
  const dataOffset = entry.localOffset + 30 + nameLength + extraLength;
  if (dataOffset > limit) fail(`${where}: local header runs past the data area`);
  const variable = readAt(fd, entry.localOffset + 30, nameLength + extraLength);
  if (!variable.subarray(0, nameLength).equals(entry.rawName)) fail(`${where}: local header names another file`);
  if (header.readUInt16LE(6) !== entry.flags) fail(`${where}: local header flags differ from the central directory`);
  if (header.readUInt16LE(8) !== entry.method) fail(`${where}: local header compression method differs`);
  const extras = parseExtras(variable.subarray(nameLength), `${where} (local header)`);
  checkUnicodePath(extras, entry.rawName, where);
  const descriptor = (entry.flags & 0x0008) !== 0;
  const crc = header.readUInt32LE(14);
  const local = resolveZip64({ usize: header.readUInt32LE(22), csize: header.readUInt32LE(18) }, extras, where);
  const zeroed = descriptor && crc === 0 && local.csize === 0 && local.usize === 0;
  if (!zeroed && (crc !== entry.crc32 || local.csize !== entry.compressedSize || local.usize !== entry.uncompressedSize))
    fail(`${where}: local header CRC or sizes differ from the central directory`);
  let end = dataOffset + entry.compressedSize;
  if (end > limit) fail(`${where}: data runs past the data area`);
  if (descriptor) {
    const wide = entry.zip64 || extras.zip64 !== null;
    const available = Math.min(4 + (wide ? 20 : 12), limit - end);
    const bytes = readAt(fd, end, Math.max(0, available));
    const skip = bytes.length >= 4 && bytes.readUInt32LE(0) === SIG.descriptor ? 4 : 0;
    if (bytes.length < skip + (wide ? 20 : 12)) fail(`${where}: data descriptor is missing`);
    const values = wide
      ? [bytes.readUInt32LE(skip), u64(bytes, skip + 4), u64(bytes, skip + 12)]
      : [bytes.readUInt32LE(skip), bytes.readUInt32LE(skip + 4), bytes.readUInt32LE(skip + 8)];
    if (values[0] !== entry.crc32 || values[1] !== entry.compressedSize || values[2] !== entry.uncompressedSize)
      fail(`${where}: data descriptor differs from the central directory`);
    end += skip + (wide ? 20 : 12);
  }
  return { dataOffset, end };
};

/**
 * Opens and fully validates an untrusted archive's structure. Throws UnreadableArchiveError when the file is
 * not a ZIP at all and ArchiveError (with the reason) for anything ambiguous or hostile; reads no entry data.
 */
export const openStrictZip = (path: string, limits: ZipLimits): StrictZip => {
  const fd = openSync(path, 'r');
  try {
    const end = readEnd(fd, fstatSync(fd).size);
    if (end.count > limits.maxEntries) fail(`archive has ${end.count} entries; at most ${limits.maxEntries} are allowed`);
    if (end.offset + end.size !== end.end) fail('central directory size and offset do not meet the end record (hidden bytes)');
    if (end.size > maxCentralDirectory) fail('central directory is too large');
    const directory = readAt(fd, end.offset, end.size);
    const centrals: Central[] = [];
    for (let at = 0; at < directory.length; ) {
      if (centrals.length >= end.count) fail(`central directory holds more entries than the ${end.count} the end record declares`);
      const { entry, length } = parseCentral(directory, at);
      centrals.push(entry);
      at += length;
    }
    if (centrals.length !== end.count) fail(`end record declares ${end.count} entries, central directory holds ${centrals.length}`);
    const files = new Map<string, ZipEntry>();
    const keys = new Map<string, boolean>();
    let expectedOffset = 0;
    let declared = 0;
    for (const entry of centrals) {
      const key = collisionKey(entry.name);
      if (keys.has(key)) fail(`duplicate entry ${JSON.stringify(entry.name)} (names equal after Unicode NFC and case folding)`);
      keys.set(key, entry.directory);
      if (entry.localOffset !== expectedOffset)
        fail(`entry ${JSON.stringify(entry.name)} does not start where the previous one ends (hidden, overlapping or reordered data)`);
      const region = checkLocal(fd, entry, end.offset);
      expectedOffset = region.end;
      declared += entry.uncompressedSize;
      if (declared > limits.maxTotalUncompressed) fail('archive declares more uncompressed data than allowed (zip bomb?)');
      if (!entry.directory) files.set(entry.name, { ...entry, dataOffset: region.dataOffset });
    }
    if (expectedOffset !== end.offset) fail('bytes between the last entry and the central directory');
    for (const name of files.keys()) {
      const parts = name.split('/');
      for (let depth = 1; depth < parts.length; depth += 1) {
        if (keys.get(collisionKey(parts.slice(0, depth).join('/'))) === false) fail(`entry ${JSON.stringify(name)} sits under a file`);
      }
    }
    return { fd, files, close: () => closeSync(fd) };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
};
