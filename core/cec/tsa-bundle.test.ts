import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFCECClient } from './client.ts';
import { sha256 } from './manifest.ts';
import { seedDays, tempApp } from './test-support.ts';
import { opensslMissing, startTestTsa, type TestTsa } from './timestamp/test-tsa.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

const run = promisify(execFile);
let tsa: TestTsa;
let fixture: ReturnType<typeof tempApp>;
let client: SFCECClient;
let zip = '';

describe.skipIf(opensslMissing !== null)('bundles with a real RFC 3161 timestamp (openssl ts as the TSA)', () => {
  beforeAll(async () => {
    tsa = await startTestTsa();
    fixture = tempApp({ SVC_TSA_URL: tsa.url });
    client = new SFCECClient({ app: fixture.app });
    seedDays(fixture.app, 'tsa', ['2026-07-01', '2026-07-02']);
    zip = (await client.buildBundle('tsa', ['2026-07-01', '2026-07-02'])).zip_path;
  });
  afterAll(async () => {
    fixture.cleanup();
    await tsa.close();
  });

  it('verifies the token over the manifest digest, in-app and with openssl ts -verify', async () => {
    const result = await client.verifyBundle(zip);
    expect(result).toMatchObject({ overall_valid: true, timestamp_valid: true, timestamp_kind: 'rfc3161', errors: [] });
    const entries = await readAllEntries(zip);
    const token = join(fixture.dir, 'bundle.tsr');
    writeFileSync(token, entries.get('rfc3161_timestamp.tsr') as Buffer);
    const digest = sha256(entries.get('manifest.json') as Buffer).toString('hex');
    const verified = await run('openssl', [
      'ts',
      '-verify',
      '-digest',
      digest,
      '-in',
      token,
      '-CAfile',
      join(tsa.dir, 'ca.pem'),
      '-untrusted',
      join(tsa.dir, 'tsa.pem'),
    ]);
    expect(verified.stdout).toContain('Verification: OK');
    expect((entries.get('VERIFY.md') as Buffer).toString('utf8')).toContain('openssl ts -verify');
  });

  it('a token altered by one byte fails the timestamp check', async () => {
    const entries = await readAllEntries(zip);
    const token = Buffer.from(entries.get('rfc3161_timestamp.tsr') as Buffer);
    token[token.length - 10] = (token[token.length - 10] as number) ^ 0xff;
    entries.set('rfc3161_timestamp.tsr', token);
    const tampered = join(fixture.dir, 'tsr-tampered.zip');
    await writeEntries(tampered, entries);
    const result = await client.verifyBundle(tampered);
    expect(result.timestamp_valid).toBe(false);
    expect(result.manifest_valid).toBe(true);
    expect(result.overall_valid).toBe(false);
  });
});
