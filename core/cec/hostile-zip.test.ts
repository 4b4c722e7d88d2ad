import { SFCECVerifyError } from '../errors.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFCECClient } from './client.ts';
import { seedDays, tempApp } from './test-support.ts';
import { defaultVerifyLimits } from './verify-limits.ts';
import { verifyBundleFile } from './verify.ts';
import { type RawEntry, rawZip, readAllEntries, writeEntries } from './zip-fixtures.ts';

const fixture = tempApp();
const client = new SFCECClient({ app: fixture.app });
let entries = new Map<string, Buffer>();
let counter = 0;

beforeAll(async () => {
  await seedDays(fixture.app, 'proj', ['2026-01-01', '2026-01-02']);
  entries = await readAllEntries((await client.buildBundle('proj', ['2026-01-01', '2026-01-02'])).zip_path);
});
afterAll(() => fixture.cleanup());

const file = (bytes: Buffer): string => {
  counter += 1;
  const path = join(fixture.dir, `hostile-${counter}.zip`);
  writeFileSync(path, bytes);
  return path;
};
const archiveErrors = async (path: string, limits = defaultVerifyLimits): Promise<string[]> => {
  const result = await verifyBundleFile(fixture.app, path, { limits });
  expect(result.overall_valid).toBe(false);
  expect(result.manifest_valid).toBe(false);
  return result.checks.find((check) => check.name === 'archive')?.errors ?? [];
};
const goodRaw = (): RawEntry[] => [...entries].map(([name, data]) => ({ name, data }));

describe('hostile ZIPs get a clear error, bounded work', () => {
  it.each([
    ['../evil.txt', /escapes the archive/],
    ['score_records/../../evil', /escapes the archive/],
    ['/etc/passwd', /absolute path/],
    ['C:/windows/evil', /absolute path/],
    ['score_records\\records.ndjson', /backslash/],
  ])('refuses the entry name %s', async (name, message) => {
    expect(await archiveErrors(file(rawZip([...goodRaw(), { name, data: Buffer.from('x') }])))).toEqual([expect.stringMatching(message)]);
  });

  it('refuses duplicate names', async () => {
    const raw = goodRaw();
    const errors = await archiveErrors(file(rawZip([...raw, raw[0] as RawEntry])));
    expect(errors[0]).toMatch(/duplicate entry/);
  });

  it('refuses symbolic links', async () => {
    const link = { name: 'link', data: Buffer.from('/etc/passwd'), externalAttributes: (0o120777 << 16) >>> 0 };
    expect((await archiveErrors(file(rawZip([...goodRaw(), link]))))[0]).toMatch(/symbolic link/);
  });

  it('refuses encrypted entries', async () => {
    const raw = goodRaw().map((entry) =>
      entry.name === 'manifest.json'
        ? { ...entry, flags: 1, data: Buffer.concat([Buffer.alloc(12), entry.data]), uncompressedSize: entry.data.length }
        : entry,
    );
    expect((await archiveErrors(file(rawZip(raw))))[0]).toMatch(/encrypted/);
  });

  it('refuses too many entries', async () => {
    const many = Array.from({ length: 70 }, (_, i) => ({ name: `junk-${i}`, data: Buffer.from('x') }));
    expect((await archiveErrors(file(rawZip(many))))[0]).toMatch(/70 entries; at most 64/);
  });

  it('raises SFCECVerifyError for a truncated archive and a non-ZIP file (spec 7: unreadable ZIP)', async () => {
    const whole = rawZip(goodRaw());
    await expect(archiveErrors(file(whole.subarray(0, Math.floor(whole.length / 2))))).rejects.toThrow(SFCECVerifyError);
    await expect(archiveErrors(file(Buffer.from('just text, not a zip')))).rejects.toThrow(/not a readable ZIP/);
  });

  it('refuses a zip bomb by its listed size before inflating a byte, and a NUL-filled folder by line length', async () => {
    const copy = new Map(entries);
    copy.set('score_records/records.ndjson', Buffer.alloc(64 * 1024 * 1024, '\n'));
    const path = join(fixture.dir, 'bomb.zip');
    await writeEntries(path, copy);
    const started = Date.now();
    const result = await client.verifyBundle(path);
    expect(result.errors).toContainEqual(
      expect.stringMatching(/^score_records\/records.ndjson: the archive declares 67108864 bytes, the manifest lists \d+$/),
    );
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops at the total uncompressed cap', async () => {
    const small = { ...defaultVerifyLimits, maxTotalUncompressed: 4096 };
    const copy = new Map(entries);
    copy.set('score_records/records.ndjson', Buffer.from('{}\n'.repeat(5000)));
    const path = join(fixture.dir, 'big.zip');
    await writeEntries(path, copy);
    expect((await archiveErrors(path, small))[0]).toMatch(/more uncompressed data than allowed|total size cap/);
  });

  it('refuses huge JSON before parsing it', async () => {
    const copy = new Map(entries);
    copy.set('manifest.json', Buffer.from(`{"pad":"${'a'.repeat(2 * 1024 * 1024)}"}`));
    const path = join(fixture.dir, 'huge.zip');
    await writeEntries(path, copy);
    expect((await archiveErrors(path))[0]).toMatch(/manifest.json" is larger than 1048576 bytes/);
  });

  it('flags entries not listed in the manifest', async () => {
    const copy = new Map(entries);
    copy.set('payload.sh', Buffer.from('rm -rf /'));
    const path = join(fixture.dir, 'extra.zip');
    await writeEntries(path, copy);
    const result = await client.verifyBundle(path);
    expect(result.manifest_valid).toBe(false);
    expect(result.errors).toEqual(['entry "payload.sh" is not listed in the manifest']);
  });
});
