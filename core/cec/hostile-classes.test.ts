/**
 * Every hostile-archive class of issue 10, built by Python's zipfile and byte surgery from a genuine bundle
 * (core/cec/fixtures/hostile-zips.py), checked three ways: the verifier, `svc verify` (exit code + reason)
 * and the upload route (never 5xx). Where `unzip` or Python would read a file differently, we must refuse.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { missingTools } from '../test-support/tools.ts';
import { main } from '../cli.ts';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { SFCECClient } from './client.ts';
import { seedDays, tempApp } from './test-support.ts';
import { defaultVerifyLimits } from './verify-limits.ts';
import { readAllEntries } from './zip-fixtures.ts';
import { writeProducerSigned } from './producer-signed.test-support.ts';
import { openStrictZip } from './zip-strict.ts';

// Python's zipfile builds the hostile archives; Python and Info-ZIP are the readers we must not disagree with.
const missing = missingTools('the hostile-archive classes', ['python3', 'unzip', 'zip']);
const key = 'test-signing-key-0123456789abcdef';
const fixture = tempApp();
const client = new SFCECClient({ app: fixture.app });
let t: TestServer;
let files: Record<string, string> = {};
let good = '';

beforeAll(async () => {
  await seedDays(fixture.app, 'hostile', ['2026-03-01', '2026-03-02']);
  good = (await client.buildBundle('hostile', ['2026-03-01', '2026-03-02'])).zip_path;
  const out = join(fixture.dir, 'hostile');
  mkdirSync(out);
  const script = join(import.meta.dirname, 'fixtures', 'hostile-zips.py');
  const cases = JSON.parse(execFileSync('python3', ['-W', 'ignore', script, good, out], { encoding: 'utf8' })) as Record<string, string>;
  files = Object.fromEntries(Object.entries(cases).map(([name, file]) => [name, join(out, file)]));
  for (const name of ['deep-record', 'extra-envelope-field', 'lone-surrogate-record'])
    files[`signed-${name}`] = await producerSigned(good, files[name] as string, join(out, `signed-${name}.zip`));
  t = await createTestServer({ app: fixture.app });
}, 120_000);
afterAll(async () => {
  await t.close();
  fixture.cleanup();
});

const svc = async (args: string[]): Promise<{ code: number; stdout: string }> => {
  const out: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    return { code: await main(args), stdout: out.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
};

const pythonList = `
import json, sys, zipfile
out = {}
for path in sys.argv[1:]:
    try:
        out[path] = sorted(n for n in zipfile.ZipFile(path).namelist() if not n.endswith('/'))
    except Exception:
        out[path] = None
print(json.dumps(out))
`;

/** Names Python's zipfile lists (files only) for each path, in one interpreter; null when it refuses. */
const pythonNames = (paths: string[]): Record<string, string[] | null> =>
  JSON.parse(execFileSync('python3', ['-W', 'ignore', '-c', pythonList, ...paths], { encoding: 'utf8' })) as Record<
    string,
    string[] | null
  >;

/** Names Info-ZIP's unzip lists (files only), or null when it refuses the archive. */
const unzipNames = (path: string): string[] | null => {
  try {
    return execFileSync('unzip', ['-Z1', path], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')
      .filter((name) => name !== '' && !name.endsWith('/'))
      .sort();
  } catch {
    return null;
  }
};

const ourNames = (path: string): string[] => {
  const zip = openStrictZip(path, defaultVerifyLimits);
  try {
    return [...zip.files.keys()].sort();
  } finally {
    zip.close();
  }
};

/** [class, the check that fails, its reason]. */
const classes: Array<[string, string, RegExp]> = [
  ['eocd-hides-forged-records', 'archive', /central directory holds more entries than the \d+ the end record declares/],
  ['eocd-hides-unlisted', 'archive', /central directory holds more entries than the \d+ the end record declares/],
  ['unicode-path-swap', 'archive', /Info-ZIP Unicode Path field names another file than the header/],
  ['prefix-bytes', 'archive', /do not meet the end record|does not start where the previous one ends|no local header/],
  ['trailing-bytes', 'archive', /comment or bytes after the end-of-central-directory record/],
  ['eocd-comment', 'archive', /comment or bytes after the end-of-central-directory record/],
  ['hidden-local-entry', 'archive', /does not start where the previous one ends/],
  ['local-name-differs', 'archive', /local header names another file/],
  ['local-size-differs', 'archive', /local header CRC or sizes differ/],
  ['crc-differs', 'archive', /fails its CRC-32 check/],
  ['overlapping-entries', 'archive', /does not start where the previous one ends/],
  ['case-duplicate', 'archive', /duplicate entry "MANIFEST.JSON" \(names equal after Unicode NFC and case folding\)/],
  ['nfc-duplicate', 'archive', /is not a portable name/],
  ['bidi-override-name', 'archive', /contains a NUL, control or bidi-override character/],
  ['control-char-name', 'archive', /contains a NUL, control or bidi-override character/],
  ['non-utf8-name', 'archive', /non-ASCII bytes without the UTF-8 flag/],
  ['bzip2-method', 'archive', /unsupported compression method 12/],
  ['symlink', 'archive', /"evidence-link" is a symbolic link/],
  ['bomb-honest-size', 'entries', /score_records\/records.ndjson: the archive declares 268435456 bytes, the manifest lists \d+/],
  ['bomb-lying-size', 'archive', /more compressed data than its size needs|inflates past its declared/],
  ['deep-record', 'entries', /score_records\/records.ndjson: the archive declares \d+ bytes, the manifest lists \d+/],
  ['extra-envelope-field', 'entries', /score_records\/records.ndjson: the archive declares \d+ bytes, the manifest lists \d+/],
  // The same two records in a bundle the producer signed: the chain check names them.
  ['signed-deep-record', 'chain', /payload is nested deeper than 64 levels/],
  ['signed-extra-envelope-field', 'chain', /malformed record \(not exactly the record fields plus hash\)/],
  ['signed-lone-surrogate-record', 'chain', /record seq 1 \(score_records\) hash does not match its content/],
];

/** A copy of `base` with one records file replaced, re-listed, re-signed (HMAC + this install's Ed25519 key). */
const producerSigned = async (base: string, from: string, out: string): Promise<string> => {
  const entries = await readAllEntries(base);
  entries.set('score_records/records.ndjson', (await readAllEntries(from)).get('score_records/records.ndjson') as Buffer);
  return writeProducerSigned(fixture.app, key, entries, out);
};

describe.skipIf(missing !== null)('hostile archive classes (built with Python zipfile + byte surgery)', () => {
  it.each(classes)('%s: the verifier refuses it with a named reason', async (name, check, reason) => {
    const path = files[name] as string;
    const started = Date.now();
    const result = await client.verifyBundle(path);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.overall_valid).toBe(false);
    expect(result.checks.find((item) => item.name === check)?.errors.join('\n')).toMatch(reason);
  });

  it.each(classes)('%s: svc verify exits 1 and prints the reason', async (name, _check, reason) => {
    const { code, stdout } = await svc(['verify', files[name] as string, '--key', key]);
    expect(code).toBe(1);
    expect(stdout).toMatch(reason);
  });

  it.each(classes)('%s: the upload route answers 200 with the failed check, never 5xx', async (name, _check, reason) => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/v1/risk/cec/verify',
      headers: { ...t.auth(), 'content-type': 'application/zip' },
      payload: readFileSync(files[name] as string),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ overall_valid: false });
    expect((res.json() as { errors: string[] }).errors.join('\n')).toMatch(reason);
  });

  it('where Python and unzip disagree (or one refuses), we refuse too', () => {
    const hostile = Object.entries(files).filter(([name]) => !name.startsWith('genuine'));
    const python = pythonNames(hostile.map(([, path]) => path));
    const differ = hostile.filter(([, path]) => {
      const unzip = unzipNames(path);
      return python[path] === null || unzip === null || JSON.stringify(python[path]) !== JSON.stringify(unzip);
    });
    expect(differ.length).toBeGreaterThan(0);
    for (const [, path] of differ) expect(() => ourNames(path)).toThrow();
  }, 120_000);

  it('genuine rewrites verify: data descriptors (Python streaming), stock `zip -r` with directory entries, ZIP64 (`zip -fz`)', async () => {
    const dir = join(fixture.dir, 'unpacked');
    execFileSync('unzip', ['-q', good, '-d', dir]);
    const rezipped = join(fixture.dir, 'rezipped.zip');
    execFileSync('zip', ['-q', '-r', rezipped, '.'], { cwd: dir });
    expect(execFileSync('unzip', ['-Z1', rezipped], { encoding: 'utf8' })).toMatch(/^score_records\/$/m);
    const zip64 = join(fixture.dir, 'rezipped-zip64.zip');
    execFileSync('zip', ['-q', '-r', '-fz', zip64, '.'], { cwd: dir });
    expect(readFileSync(zip64).includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    for (const path of [files['genuine-data-descriptors'] as string, rezipped, zip64]) {
      const result = await client.verifyBundle(path);
      expect(result.errors).toEqual([]);
      expect(result.overall_valid).toBe(true);
      expect(ourNames(path)).toEqual(pythonNames([path])[path]);
      expect(ourNames(path)).toEqual(unzipNames(path));
      expect((await svc(['verify', path, '--key', key])).code).toBe(0);
    }
  }, 120_000);

  it('not a ZIP at all: svc verify exits 2, the upload route answers 4xx', async () => {
    const path = join(fixture.dir, 'not-a-zip.zip');
    execFileSync('sh', ['-c', `head -c 5000 /dev/urandom > '${path}'`]);
    expect((await svc(['verify', path, '--key', key])).code).toBe(2);
    const res = await t.server.inject({
      method: 'POST',
      url: '/v1/risk/cec/verify',
      headers: { ...t.auth(), 'content-type': 'application/zip' },
      payload: readFileSync(path),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
