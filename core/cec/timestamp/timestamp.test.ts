import { execFile } from 'node:child_process';
import { createHash, webcrypto } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { SFCECBuildError } from '../../errors.ts';
import { cryptoEngine, toArrayBuffer } from './crypto-engine.ts';
import { createTimestamp, stubMarker, verifyTimestamp } from './index.ts';
import { opensslMissing, startTestTsa, type TestTsa } from './test-tsa.ts';
import { noTrustAnchor } from './tsp-verify.ts';

const run = promisify(execFile);
const digestOf = (text: string) => createHash('sha256').update(text).digest();
const manifestDigest = digestOf('{"manifest":"example"}');

/** A loopback port that nothing listens on (bound, then released). */
const freePort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};

const pemBody = (pem: string): Buffer => Buffer.from(pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, ''), 'base64');

/**
 * Re-signs a token's SignedData with another certificate and key (same TSTInfo, same signed attributes), as a
 * forger holding some other valid key would. Used to show that the certificate's purpose is checked.
 */
const resignWith = async (token: Buffer, certPem: string, keyPem: string): Promise<Buffer> => {
  const response = pkijs.TimeStampResp.fromBER(toArrayBuffer(token));
  const content = response.timeStampToken?.content;
  if (content === undefined) throw new Error('token without timeStampToken');
  const signedData = new pkijs.SignedData({ schema: content });
  const certificate = pkijs.Certificate.fromBER(toArrayBuffer(pemBody(certPem)));
  signedData.certificates = [certificate];
  const signer = signedData.signerInfos[0];
  if (signer === undefined) throw new Error('token without signer');
  signer.sid = new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber });
  const key = await webcrypto.subtle.importKey('pkcs8', pemBody(keyPem), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
  await signedData.sign(key as unknown as CryptoKey, 0, 'SHA-256', undefined, cryptoEngine);
  const timeStampToken = new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signedData.toSchema(true) });
  return Buffer.from(new pkijs.TimeStampResp({ status: response.status, timeStampToken }).toSchema().toBER(false));
};

/** Flips one byte of a copy, at an offset from the start (or from the end when negative). */
const flipByte = (bytes: Buffer, offset: number): Buffer => {
  const copy = Buffer.from(bytes);
  const at = offset < 0 ? copy.length + offset : offset;
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
};

describe('timestamp stub (no TSA configured)', () => {
  const app = createApp({ dataDir: ':memory:', env: {}, now: () => new Date('2026-03-04T05:06:07.000Z') });
  afterAll(() => app.close());

  it('writes a stub clearly marked as such that names the digest', async () => {
    const { token, kind } = await createTimestamp(app, manifestDigest);
    expect(kind).toBe('stub');
    const text = token.toString('utf8');
    expect(text.startsWith(`${stubMarker}\n`)).toBe(true);
    expect(text).toContain(`imprint-sha256: ${manifestDigest.toString('hex')}`);
    expect(text).toContain('NOT an RFC 3161 timestamp token');
  });

  it('verifies a matching stub as valid (per spec) but reports kind stub', async () => {
    const { token } = await createTimestamp(app, manifestDigest);
    expect(await verifyTimestamp(token, manifestDigest)).toEqual({
      kind: 'stub',
      valid: true,
      errors: [],
      genTime: '2026-03-04T05:06:07.000Z',
    });
  });

  it('rejects a stub for another digest, an empty file and a stub without imprint', async () => {
    const { token } = await createTimestamp(app, manifestDigest);
    const other = await verifyTimestamp(token, digestOf('other'));
    expect(other.valid).toBe(false);
    expect(other.errors).toEqual(['Timestamp stub imprint does not match the manifest digest']);
    expect((await verifyTimestamp(Buffer.alloc(0), manifestDigest)).errors).toEqual(['Timestamp file is empty']);
    const bare = await verifyTimestamp(Buffer.from(`${stubMarker}\n`), manifestDigest);
    expect(bare.errors).toEqual(['Timestamp stub has no imprint-sha256 line']);
  });

  it('refuses a digest that is not 32 bytes', async () => {
    await expect(createTimestamp(app, Buffer.from('short'))).rejects.toThrow(TypeError);
  });
});

describe.skipIf(opensslMissing !== null)('RFC 3161 against openssl ts as a local TSA', () => {
  let tsa: TestTsa;
  let app: App;
  let token: Buffer;
  let workDir: string;

  beforeAll(async () => {
    tsa = await startTestTsa();
    app = createApp({ dataDir: ':memory:', env: { SVC_TSA_URL: tsa.url } });
    workDir = mkdtempSync(join(tmpdir(), 'svc-ts-test-'));
    writeFileSync(join(workDir, 'ca.pem'), tsa.caPem);
    writeFileSync(join(workDir, 'tsa.pem'), tsa.tsaPem);
    token = (await createTimestamp(app, manifestDigest)).token;
  });
  afterAll(async () => {
    app.close();
    await tsa.close();
    rmSync(workDir, { recursive: true, force: true });
  });
  beforeEach(() => tsa.setMode('normal'));

  it('obtains a real token and verifies it with the embedded TSA certificate', async () => {
    const result = await createTimestamp(app, manifestDigest);
    expect(result.kind).toBe('rfc3161');
    const check = await verifyTimestamp(result.token, manifestDigest, { trustedCertsPem: [tsa.caPem] });
    expect(check).toMatchObject({ kind: 'rfc3161', valid: true, errors: [], tsa: 'O=SVC Tests, CN=SVC Test TSA', trusted: true });
    expect(await verifyTimestamp(result.token, manifestDigest)).toMatchObject({ valid: false, errors: [noTrustAnchor], trusted: false });
    expect(Math.abs(Date.parse(check.genTime ?? '') - Date.now())).toBeLessThan(60_000);
  });

  it('stores a TimeStampResp that openssl ts -reply reads and openssl ts -verify accepts', async () => {
    const file = join(workDir, 'token.tsr');
    writeFileSync(file, token);
    const text = await run('openssl', ['ts', '-reply', '-in', file, '-text']);
    expect(text.stdout).toContain('Status: Granted.');
    expect(text.stdout).toContain('Nonce: 0x');
    const opensslVerify = (digest: Buffer) =>
      run('openssl', [
        'ts',
        '-verify',
        '-digest',
        digest.toString('hex'),
        '-in',
        file,
        '-CAfile',
        join(workDir, 'ca.pem'),
        '-untrusted',
        join(workDir, 'tsa.pem'),
      ]);
    expect((await opensslVerify(manifestDigest)).stdout).toContain('Verification: OK');
    // and openssl refuses it for another digest, so the check above is meaningful
    await expect(opensslVerify(digestOf('x'))).rejects.toThrow();
  });

  it('checks the chain when trusted certificates are given', async () => {
    const trusted = await verifyTimestamp(token, manifestDigest, { trustedCertsPem: [tsa.caPem] });
    expect(trusted.valid).toBe(true);
    const untrusted = await verifyTimestamp(token, manifestDigest, { trustedCertsPem: [tsa.tsaPem] });
    expect(untrusted.valid).toBe(false);
    expect(untrusted.errors.join('\n')).toMatch(/does not chain to a trusted certificate/);
  });

  it('reports a wrong digest', async () => {
    const check = await verifyTimestamp(token, digestOf('another manifest'), { trustedCertsPem: [tsa.caPem] });
    expect(check.valid).toBe(false);
    expect(check.errors).toEqual(['Timestamp imprint does not match the manifest digest']);
  });

  it('reports a tampered imprint (the signature no longer covers the TSTInfo)', async () => {
    const at = token.indexOf(manifestDigest);
    expect(at).toBeGreaterThan(0);
    const tampered = flipByte(token, at);
    const check = await verifyTimestamp(tampered, flipByte(manifestDigest, 0));
    expect(check.valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/Timestamp signature does not verify: .*Message digest doesn't match/);
  });

  it('reports tampered signature bytes', async () => {
    const check = await verifyTimestamp(flipByte(token, -1), manifestDigest);
    expect(check.valid).toBe(false);
    expect(check.errors.join('\n')).toMatch(/Timestamp signature does not verify/);
  });

  it('accepts a token re-signed by the TSA itself (the re-signing helper is sound)', async () => {
    const keyPem = readFileSync(join(tsa.dir, 'tsa.key'), 'utf8');
    const resigned = await resignWith(token, tsa.tsaPem, keyPem);
    expect(resigned.equals(token)).toBe(false);
    expect(await verifyTimestamp(resigned, manifestDigest, { trustedCertsPem: [tsa.caPem] })).toMatchObject({ valid: true, errors: [] });
  });

  it('rejects a token signed by a certificate not meant for timestamping', async () => {
    await run(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'plain.key',
        '-out',
        'plain.pem',
        '-days',
        '30',
        '-subj',
        '/CN=Not a TSA',
        '-addext',
        'keyUsage=critical,digitalSignature',
      ],
      { cwd: workDir },
    );
    const forged = await resignWith(
      token,
      readFileSync(join(workDir, 'plain.pem'), 'utf8'),
      readFileSync(join(workDir, 'plain.key'), 'utf8'),
    );
    const check = await verifyTimestamp(forged, manifestDigest);
    expect(check).toMatchObject({ valid: false, tsa: 'CN=Not a TSA' });
    // The token's tsa name and its ESS binding name the real TSA, so re-attributing the signature fails on each.
    expect(check.errors).toEqual([
      noTrustAnchor,
      'TSA certificate lacks the timeStamping extended key usage',
      'Timestamp names a TSA other than the certificate that signed it',
      'Timestamp ESS signing-certificate names another certificate than the one that signed',
    ]);
    const trusted = await verifyTimestamp(forged, manifestDigest, { trustedCertsPem: [tsa.caPem] });
    expect(trusted.errors).toContain('TSA certificate lacks the timeStamping extended key usage');
    expect(trusted.errors.join('\n')).toMatch(/does not chain to a trusted certificate/);
  });

  it('reports bytes that are not a token at all', async () => {
    const check = await verifyTimestamp(Buffer.from('0123456789'), manifestDigest);
    expect(check).toMatchObject({ kind: 'rfc3161', valid: false });
    expect(check.errors[0]).toMatch(/^Timestamp token unreadable: not an RFC 3161 TimeStampResp/);
  });

  it('fails the build with an error naming the TSA when it is down', async () => {
    const port = await freePort();
    const down = createApp({ dataDir: ':memory:', env: { SVC_TSA_URL: `http://127.0.0.1:${port}/tsa?secret=1` } });
    const attempt = createTimestamp(down, manifestDigest);
    await expect(attempt).rejects.toBeInstanceOf(SFCECBuildError);
    await expect(attempt).rejects.toThrow(`Timestamp authority http://127.0.0.1:${port}/tsa failed: request failed (ECONNREFUSED)`);
    down.close();
  });

  it.each([
    ['http-error', /failed: HTTP 503$/],
    ['wrong-type', /failed: unexpected content type "text\/html"$/],
    ['garbage', /failed: not an RFC 3161 TimeStampResp/],
    ['oversized', /failed: reply larger than 262144 bytes$/],
  ] as const)('fails the build when the TSA answers %s', async (mode, message) => {
    tsa.setMode(mode);
    await expect(createTimestamp(app, manifestDigest)).rejects.toThrow(message);
  });

  it('detects a replayed reply through the nonce', async () => {
    await createTimestamp(app, manifestDigest);
    tsa.setMode('replay');
    await expect(createTimestamp(app, manifestDigest)).rejects.toThrow(/reply nonce does not match the request$/);
  });

  it('gives up on a TSA that never answers', async () => {
    tsa.setMode('hang');
    await expect(createTimestamp(app, manifestDigest, { timeoutMs: 300, maxReplyBytes: 1024 })).rejects.toThrow(
      /failed: no reply within 300 ms$/,
    );
  });
});
