import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvc } from '../cli/test-support.ts';
import { SFCECClient } from './client.ts';
import { exportPublicKey } from './ed25519.ts';
import { hmacKeyId } from './signing-key.ts';
import type { BundleVerificationResult } from './types.ts';
import { seedDays, tempApp } from './test-support.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

const run = promisify(execFile);

const fixture = tempApp();
let zip = '';
let tampered = '';
let pem = '';

beforeAll(async () => {
  await seedDays(fixture.app, 'cli', ['2026-02-01', '2026-02-02']);
  zip = (await new SFCECClient({ app: fixture.app }).buildBundle('cli', ['2026-02-01', '2026-02-02'])).zip_path;
  const entries = await readAllEntries(zip);
  entries.set('bias_reports/records.ndjson', Buffer.from(''));
  tampered = join(fixture.dir, 'tampered.zip');
  await writeEntries(tampered, entries);
  pem = join(fixture.dir, 'producer.pem');
  writeFileSync(pem, (await exportPublicKey(fixture.app)).pem);
});
afterAll(() => fixture.cleanup());

describe('svc verify and svc build', () => {
  it('exits 0 for a valid bundle (HMAC key) and prints JSON', async () => {
    const result = await runSvc(['verify', zip, '--key', 'test-signing-key-0123456789abcdef', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ overall_valid: true });
  });

  it('exits 0 with only the producer public key, 1 for a tampered bundle, 2 for a missing file', async () => {
    const withPem = await runSvc(['verify', zip, '--public-key', pem]);
    expect(withPem.code).toBe(0);
    expect(withPem.stdout).toContain('VALID');
    const bad = await runSvc(['verify', tampered, '--public-key', pem]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/INVALID[\s\S]*FAIL +chain/);
    const missing = await runSvc(['verify', join(fixture.dir, 'nope.zip'), '--key', 'k'.repeat(20)]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Bundle file not found/);
    expect((await runSvc(['verify'])).code).toBe(2);
  });

  it('--key alone: HMAC checked, Ed25519 "not checked: no trusted public key", and the JSON names the key ids', async () => {
    const result = await runSvc(['verify', zip, '--key', 'test-signing-key-0123456789abcdef', '--json']);
    const json = JSON.parse(result.stdout) as BundleVerificationResult;
    expect(json.signatures).toEqual({
      hmac: { checked: true, valid: true, key_id: hmacKeyId('test-signing-key-0123456789abcdef') },
      ed25519: { checked: false, valid: null, key_id: null, claimed_key_id: (await exportPublicKey(fixture.app)).kid },
    });
    const text = await runSvc(['verify', zip, '--key', 'test-signing-key-0123456789abcdef']);
    expect(text.stdout).toMatch(/SKIPPED signature +Ed25519 signature not checked: no trusted public key/);
  });

  it('--public-key (repeatable, for rotation) ignores an unrelated SVC_SIGNING_KEY in the environment', async () => {
    const old = join(fixture.dir, 'rotated-out.pem');
    writeFileSync(old, generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
    const before = process.env.SVC_SIGNING_KEY;
    process.env.SVC_SIGNING_KEY = 'an-unrelated-key-0123456789abcdef';
    try {
      const result = await runSvc(['verify', zip, '--public-key', old, '--public-key', pem, '--json']);
      expect(result.code).toBe(0);
      const json = JSON.parse(result.stdout) as BundleVerificationResult;
      expect(json.signatures.hmac.checked).toBe(false);
      expect(json.signatures.ed25519).toMatchObject({ checked: true, valid: true, key_id: (await exportPublicKey(fixture.app)).kid });
      expect((await runSvc(['verify', zip, '--public-key', old])).code).toBe(1);
    } finally {
      if (before === undefined) delete process.env.SVC_SIGNING_KEY;
      else process.env.SVC_SIGNING_KEY = before;
    }
  });

  it('svc public-key prints the PEM and its RFC 7638 thumbprint', async () => {
    const result = await runSvc(['public-key', '--data-dir', fixture.dir]);
    const { kid, jwk } = await exportPublicKey(fixture.app);
    expect(kid).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
    expect(result.stdout).toContain('-----BEGIN PUBLIC KEY-----');
    expect(result.stdout).toContain(`RFC 7638 thumbprint (SHA-256): ${kid}`);
  });

  it('svc build writes a bundle from the data dir', async () => {
    const out = join(fixture.dir, 'cli-out');
    const result = await runSvc([
      'build',
      '--project',
      'cli',
      '--from',
      '2026-02-01',
      '--to',
      '2026-02-02',
      '--frameworks',
      'soc2,ISO/IEC 42001',
      '--out',
      out,
      '--data-dir',
      fixture.dir,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const built = JSON.parse(result.stdout) as { zip_path: string; frameworks_covered: string[] };
    expect(built.zip_path).toMatch(new RegExp(`^${out}/cec-[0-9A-Z]{26}/svc_cec_cli_2026-02-01_2026-02-02.zip$`));
    expect(built.frameworks_covered).toEqual(['soc2', 'iso_42001']);
    expect((await runSvc(['build', '--project', 'cli'])).code).toBe(2);
  });

  it('the installed bin/svc.js exits 0 for a valid bundle (one real process)', async () => {
    const { stdout } = await run(process.execPath, ['bin/svc.js', 'verify', zip, '--key', 'test-signing-key-0123456789abcdef'], {
      env: { ...process.env, SVC_SIGNING_KEY: '' },
    });
    expect(stdout).toMatch(/VALID/);
  }, 90_000);
});
