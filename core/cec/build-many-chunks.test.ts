/**
 * A bundle whose NDJSON entries span several deflate chunks (DeflatingFile encodes 1 MiB at a time, the segment
 * pass reads 4000 rows a query), read back by tools that share no code with the writer: Info-ZIP `unzip -t`,
 * Python's zipfile (CRC check and every line compared with the stored rows through Python's sqlite3), the
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

describe.skipIf(missing !== null)(`a bundle of ${records} records (several deflate chunks per entry)`, () => {
  const { app, dir, cleanup } = tempApp();
  let zip = '';
  let pubPem = '';

  beforeAll(async () => {
    await seedExamples(app, 'many', records);
    await anchorHead(app, 'many');
    pubPem = join(dir, 'pub.pem');
    writeFileSync(pubPem, (await exportPublicKey(app)).pem);
    zip = (await new SFCECClient({ app }).buildBundle('many', exampleRange, undefined, { outputDir: join(dir, 'out') })).zip_path;
  }, 400_000);
  afterAll(() => {
    app.close();
    cleanup();
  });

  it('passes unzip -t', async () => {
    const { stdout } = await run('unzip', ['-t', zip], { maxBuffer: 1 << 20 });
    expect(stdout).toContain('No errors detected');
  });

  it("passes Python's zipfile testzip, and every line equals its stored row", async () => {
    const { stdout } = await run('python3', ['-c', python, zip, join(dir, 'workbench.db'), 'many', JSON.stringify(schemaKeys)], {
      maxBuffer: 1 << 20,
    });
    const sizes = JSON.parse(stdout) as Record<string, number>;
    expect(Object.keys(sizes).sort()).toEqual([...schemaKeys].sort());
    // Each folder spans at least two of the writer's 1 MiB chunks.
    for (const key of schemaKeys) expect(sizes[key]).toBeGreaterThan(2 << 20);
  }, 300_000);

  it('passes the strict verifier and verify-offline.sh', async () => {
    const result = await new SFCECClient({ app }).verifyBundle(zip);
    expect(result.errors).toEqual([]);
    expect(result.overall_valid).toBe(true);
    const { stdout } = await run('sh', [join(import.meta.dirname, '../../docs/auditor/verify-offline.sh'), zip, pubPem], {
      maxBuffer: 4 << 20,
    });
    expect(stdout).not.toContain('FAIL');
    expect(stdout).toContain('PASS');
  }, 400_000);
});
