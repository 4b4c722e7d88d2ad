/**
 * A bundle whose NDJSON entries span several deflate chunks (DeflatingFile encodes 1 MiB at a time, the segment
 * pass reads 2000 rows a query), built with the segment pass on one thread and split over two (segment-split.ts),
 * read back by tools that share no code with the writer: Info-ZIP `unzip -t`, Python's zipfile (CRC check, every
 * line compared with the stored rows through Python's sqlite3, and the two builds' entry bytes compared), the
 * product's strict verifier and docs/auditor/verify-offline.sh.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingTools } from '../test-support/tools.ts';
import { anchorHead } from '../audit/anchors/store.ts';
import { schemaKeys } from '../audit/types.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { exampleRange, seedExamples, tempApp } from './test-support.ts';
import { writeBundle } from './build.ts';
import { frameworkIds } from './clauses/index.ts';
import { resolveSigningKey } from './signing-key.ts';

const run = promisify(execFile);
const missing = missingTools('a many-chunk bundle read back by unzip, Python and verify-offline.sh', [
  'sh',
  'unzip',
  'sha256sum',
  'openssl',
  'python3',
]);
const records = 30_000;

/**
 * Prints, per entry, its size and whether every line equals the stored row it stands for: parsed, the record
 * (payload parsed from its column) with nothing added or missing, and in the canonical layout (keys sorted, no
 * whitespace), in seq order, with every stored row of that key present.
 */
const python = `
import json, sqlite3, sys, zipfile
archive, database, project = sys.argv[1], sys.argv[2], sys.argv[3]
z = zipfile.ZipFile(archive)
assert z.testzip() is None, 'CRC mismatch'
db = sqlite3.connect(database)
cols = ['seq', 'record_id', 'project_id', 'schema_key', 'timestamp', 'recorded_at', 'payload', 'prev_hash', 'hash']
out = {}
for key in json.loads(sys.argv[4]):
    body = z.read(key + '/records.ndjson')
    lines = body.decode('utf-8').split('\\n')
    assert lines[-1] == '', 'entry must end with a newline'
    rows = db.execute('SELECT ' + ', '.join(cols) + ' FROM audit_records WHERE project_id = ? AND schema_key = ? ORDER BY seq', (project, key)).fetchall()
    assert len(rows) == len(lines) - 1, (key, len(rows), len(lines) - 1)
    for line, row in zip(lines, rows):
        expected = dict(zip(cols, row))
        expected['payload'] = json.loads(expected['payload'])
        assert json.loads(line) == expected, (key, row[0])
        assert line == json.dumps(expected, sort_keys=True, separators=(',', ':'), ensure_ascii=False), (key, row[0])
    out[key] = len(body)
print(json.dumps(out))
`;

/** The stored (compressed) bytes and CRC of each named entry, as Python reads them from the archive itself. */
const rawEntries = `
import hashlib, json, struct, sys, zipfile
result = {}
for name in json.loads(sys.argv[2]):
    with zipfile.ZipFile(sys.argv[1]) as z, open(sys.argv[1], 'rb') as f:
        info = z.getinfo(name)
        f.seek(info.header_offset)
        header = f.read(30)
        assert header[:4] == b'PK\\x03\\x04'
        name_len, extra_len = struct.unpack('<HH', header[26:30])
        f.seek(info.header_offset + 30 + name_len + extra_len)
        raw = f.read(info.compress_size)
        result[name] = [hashlib.sha256(raw).hexdigest(), info.CRC, info.file_size, info.compress_size]
print(json.dumps(result))
`;

describe.skipIf(missing !== null)(`a bundle of ${records} records (several deflate chunks per entry)`, () => {
  const { app, dir, cleanup } = tempApp();
  const zips = { 'one thread': '', 'two threads': '' };
  let pubPem = '';
  const build = async (splitFrom: number) =>
    (
      await writeBundle(app, {
        projectId: 'many',
        range: exampleRange,
        frameworks: [...frameworkIds],
        orgId: null,
        hmacKey: resolveSigningKey(app),
        outputDir: join(dir, 'out'),
        splitFrom,
      })
    ).zip_path;

  beforeAll(async () => {
    await seedExamples(app, 'many', records);
    await anchorHead(app, 'many');
    pubPem = join(dir, 'pub.pem');
    writeFileSync(pubPem, (await exportPublicKey(app)).pem);
    zips['one thread'] = await build(Number.POSITIVE_INFINITY);
    zips['two threads'] = await build(0);
  }, 400_000);
  afterAll(() => {
    app.close();
    cleanup();
  });

  const each = it.each(Object.keys(zips) as (keyof typeof zips)[]);

  it('stores the same NDJSON and chain proof bytes whether the pass ran on one thread or two', async () => {
    const names = JSON.stringify([...schemaKeys.map((key) => `${key}/records.ndjson`), 'chain_proof.json']);
    const [one, two] = await Promise.all(
      Object.values(zips).map(async (zip) => JSON.parse((await run('python3', ['-c', rawEntries, zip, names])).stdout) as unknown),
    );
    expect(two).toEqual(one);
    expect(Object.keys(one as object)).toHaveLength(7);
  }, 120_000);

  each('passes unzip -t (%s)', async (threads) => {
    const zip = zips[threads];
    const { stdout } = await run('unzip', ['-t', zip], { maxBuffer: 1 << 20 });
    expect(stdout).toContain('No errors detected');
  });

  each(
    "passes Python's zipfile testzip, and every line equals its stored row (%s)",
    async (threads) => {
      const zip = zips[threads];
      const { stdout } = await run('python3', ['-c', python, zip, join(dir, 'workbench.db'), 'many', JSON.stringify(schemaKeys)], {
        maxBuffer: 1 << 20,
      });
      const sizes = JSON.parse(stdout) as Record<string, number>;
      expect(Object.keys(sizes).sort()).toEqual([...schemaKeys].sort());
      // Each folder spans at least two of the writer's 1 MiB chunks.
      for (const key of schemaKeys) expect(sizes[key]).toBeGreaterThan(2 << 20);
    },
    300_000,
  );

  each(
    'passes the strict verifier and verify-offline.sh (%s)',
    async (threads) => {
      const zip = zips[threads];
      const result = await new SFCECClient({ app }).verifyBundle(zip);
      expect(result.errors).toEqual([]);
      expect(result.overall_valid).toBe(true);
      const { stdout } = await run('sh', [join(import.meta.dirname, '../../docs/auditor/verify-offline.sh'), zip, pubPem], {
        maxBuffer: 4 << 20,
      });
      expect(stdout).not.toContain('FAIL');
      expect(stdout).toContain('PASS');
    },
    400_000,
  );
});
