import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { missingTools } from '../test-support/tools.ts';
import { DeflatingFile } from './deflating-file.ts';
import { HashingZip, single } from './hashing-zip.ts';
import { ChunkPool } from './utf8-chunks.ts';
import { defaultVerifyLimits } from './verify-limits.ts';
import { readEntry } from './zip-reader.ts';
import { openStrictZip } from './zip-strict.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Three MiB of NDJSON-like text with non-ASCII, so the deflated body spans several encode chunks. */
const bigText = (): string => Array.from({ length: 30_000 }, (_, i) => `{"seq":${i},"note":"Zoë ☃ 😀 ${'x'.repeat(i % 90)}"}\n`).join('');

const build = async (forceZip64: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-zip-'));
  dirs.push(dir);
  const contents: Record<string, string> = {
    'big/records.ndjson': bigText(),
    'empty/records.ndjson': '',
    'small.json': JSON.stringify({ a: 1, b: 'two' }),
    'stored.tsr': 'SVC-RFC3161-STUB v1\n',
  };
  const zip = new HashingZip(new Date(2026, 2, 1, 12, 30, 44), { forceZip64 });
  for (const name of ['big/records.ndjson', 'empty/records.ndjson']) {
    const file = new DeflatingFile(join(dir, `${name.replace('/', '_')}.deflate`), 1, new ChunkPool());
    const text = contents[name] as string;
    for (const line of text.split(/(?<=\n)/)) if (line !== '') file.write(line);
    zip.addDeflated(name, () => file.finish());
  }
  zip.add(
    'small.json',
    single(() => contents['small.json'] as string),
    6,
  );
  zip.add(
    'stored.tsr',
    single(() => Buffer.from(contents['stored.tsr'] as string)),
    0,
  );
  const path = join(dir, 'out.zip');
  await zip.finish(join(dir, 'out.zip.partial'), path);
  return { path, contents, digests: zip.digests };
};

const python = `
import hashlib, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
assert z.testzip() is None
print(json.dumps({i.filename: [i.compress_type, i.file_size, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()}))
`;

// Info-ZIP and Python's zipfile read back what we write.
const missing = missingTools('the ZIP container read-back by unzip, zipinfo and Python', ['unzip', 'zipinfo', 'python3']);

describe('ZIP container writer (pre-deflated entries)', () => {
  it.skipIf(missing !== null).each([false, true])(
    'writes an archive unzip, zipinfo, python zipfile and our strict reader accept (zip64 forced: %s)',
    async (zip64) => {
      const { path, contents, digests } = await build(zip64);
      const sha = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
      for (const [name, text] of Object.entries(contents)) {
        expect(digests[name]).toEqual({ sha256: sha(text), size: Buffer.byteLength(text) });
      }

      expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
      const listing = execFileSync('zipinfo', [path]).toString();
      expect(listing).toMatch(/-rw-r--r--.*defN.*big\/records\.ndjson/);
      expect(listing).toMatch(/stor.*stored\.tsr/);
      expect(listing).toContain('4 files');
      expect(execFileSync('unzip', ['-p', path, 'big/records.ndjson'], { maxBuffer: 16 << 20 }).toString()).toBe(
        contents['big/records.ndjson'],
      );

      const seen = JSON.parse(execFileSync('python3', ['-c', python, path]).toString()) as Record<string, [number, number, string]>;
      expect(seen).toEqual({
        'big/records.ndjson': [8, digests['big/records.ndjson']?.size, digests['big/records.ndjson']?.sha256],
        'empty/records.ndjson': [8, 0, sha('')],
        'small.json': [8, digests['small.json']?.size, digests['small.json']?.sha256],
        'stored.tsr': [0, digests['stored.tsr']?.size, digests['stored.tsr']?.sha256],
      });

      // The verifier's strict reader: end records, tiling, local/central agreement, ZIP64 fields, CRC.
      const archive = openStrictZip(path, defaultVerifyLimits);
      try {
        expect([...archive.files.keys()]).toEqual(Object.keys(contents));
        for (const [name, entry] of archive.files) {
          expect((await readEntry(archive, entry, 16 << 20)).toString('utf8')).toBe(contents[name]);
        }
      } finally {
        archive.close();
      }
    },
  );

  it('leaves no archive behind when an entry fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-zip-'));
    dirs.push(dir);
    const zip = new HashingZip(new Date());
    zip.add(
      'ok.json',
      single(() => '{}'),
      6,
    );
    zip.add(
      'bad.json',
      single(() => Promise.reject(new Error('timestamp authority down'))),
      6,
    );
    await expect(zip.finish(join(dir, 'x.partial'), join(dir, 'x.zip'))).rejects.toThrow(/authority down/);
    expect(() => readFileSync(join(dir, 'x.zip'))).toThrow();
    expect(() => readFileSync(join(dir, 'x.partial'))).toThrow();
  });
});
