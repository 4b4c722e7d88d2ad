import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { SFCECClient } from './client.ts';
import { sha256 } from './manifest.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe, type DescribeApp } from './app-per-describe.test-support.ts';
import { seedDays, tempApp } from './test-support.ts';
import { createTimestamp } from './timestamp/index.ts';
import { createStub } from './timestamp/stub.ts';
import { opensslMissing, startTestTsa, type TestTsa } from './timestamp/test-tsa.ts';
import { noTrustAnchor } from './timestamp/tsp-verify.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

const run = promisify(execFile);
let tsa: TestTsa;
let otherTsa: TestTsa;
let fixture: DescribeApp;
let client: SFCECClient;
let zip = '';

const trusted = () => ({ tsaCaPem: [tsa.caPem] });

/** A copy of the bundle with the timestamp entry replaced. */
const withToken = async (name: string, token: Buffer): Promise<string> => {
  const entries = await readAllEntries(zip);
  entries.set('rfc3161_timestamp.tsr', token);
  const path = join(fixture.dir, name);
  await writeEntries(path, entries);
  return path;
};

/** A token over `digest` from the TSA at `url` (another authority, or another digest: a backdated token). */
const tokenFrom = async (url: string, digest: Buffer): Promise<Buffer> => {
  const app = createApp({ dataDir: ':memory:', env: { SVC_TSA_URL: url } });
  try {
    return (await createTimestamp(app, digest)).token;
  } finally {
    app.close();
  }
};

describe.skipIf(opensslMissing !== null).each(testBackends)(
  'bundles built on $name with a real RFC 3161 timestamp (openssl ts as the TSA)',
  (backend) => {
    beforeAll(async () => {
      tsa = await startTestTsa();
      otherTsa = await startTestTsa();
    });
    const describeApp = appPerDescribe(backend, () => ({ SVC_TSA_URL: tsa.url }));
    beforeAll(async () => {
      fixture = describeApp();
      client = new SFCECClient({ app: fixture.app });
      await seedDays(fixture.app, 'tsa', ['2026-07-01', '2026-07-02']);
      zip = (await client.buildBundle('tsa', ['2026-07-01', '2026-07-02'])).zip_path;
    });
    afterAll(async () => {
      await tsa.close();
      await otherTsa.close();
    });

    it('verifies the token over the manifest digest, in-app and with openssl ts -verify', async () => {
      const result = await client.verifyBundle(zip, trusted());
      expect(result).toMatchObject({ overall_valid: true, timestamp_valid: true, timestamp_kind: 'rfc3161', errors: [] });
      expect(result.timestamp).toMatchObject({
        kind: 'rfc3161',
        trusted: true,
        tsa: expect.stringContaining('CN='),
        policy: expect.stringMatching(/^[\d.]+$/),
      });
      expect(result.timestamp?.serial).toMatch(/^[0-9a-f]+$/);
      expect(Date.parse(result.timestamp?.gen_time ?? '')).toBeGreaterThan(Date.now() - 120_000);
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
      const result = await client.verifyBundle(tampered, trusted());
      expect(result.timestamp_valid).toBe(false);
      expect(result.manifest_valid).toBe(true);
      expect(result.overall_valid).toBe(false);
    });

    it('without a trusted TSA root, a real token is timestamp_valid false with the reason; SVC_TSA_CA_FILE supplies the root', async () => {
      const result = await client.verifyBundle(zip);
      expect(result.timestamp_valid).toBe(false);
      expect(result.errors).toEqual([`timestamp: ${noTrustAnchor}`]);
      const caFile = join(fixture.dir, 'tsa-root.pem');
      writeFileSync(caFile, tsa.caPem);
      const configured = tempApp({ SVC_TSA_CA_FILE: caFile });
      const viaSetting = await new SFCECClient({ app: configured.app })
        .verifyBundle(zip, { key: 'test-signing-key-0123456789abcdef' })
        .finally(configured.cleanup);
      expect(viaSetting.timestamp_valid).toBe(true);
    });

    it("a root other than the TSA's fails the chain", async () => {
      const result = await client.verifyBundle(zip, { tsaCaPem: [otherTsa.caPem] });
      expect(result.timestamp_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/does not chain to a trusted certificate/);
    });

    it('a token from another TSA over the right digest fails against our root', async () => {
      const digest = sha256((await readAllEntries(zip)).get('manifest.json') as Buffer);
      const path = await withToken('other-tsa.zip', await tokenFrom(otherTsa.url, digest));
      const result = await client.verifyBundle(path, trusted());
      expect(result.timestamp_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/does not chain to a trusted certificate/);
      expect((await client.verifyBundle(path, { tsaCaPem: [tsa.caPem, otherTsa.caPem] })).timestamp_valid).toBe(true);
    });

    it('a backdated token (same TSA, older, for another digest) fails the imprint', async () => {
      const path = await withToken('backdated.zip', await tokenFrom(tsa.url, sha256('an older manifest')));
      const result = await client.verifyBundle(path, trusted());
      expect(result.timestamp_valid).toBe(false);
      expect(result.errors).toEqual(['timestamp: Timestamp imprint does not match the manifest digest']);
    });

    it('a stub swapped in for the token fails: the signed attestation names an RFC 3161 token', async () => {
      const digest = sha256((await readAllEntries(zip)).get('manifest.json') as Buffer);
      const result = await client.verifyBundle(await withToken('stub-swap.zip', createStub(digest, new Date())), trusted());
      expect(result.timestamp_valid).toBe(false);
      expect(result.timestamp_kind).toBe('stub');
      expect(result.errors).toEqual(['timestamp: the signed attestation names a rfc3161 timestamp, the bundle holds a stub']);
    });
  },
);
