import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { CompactSign, calculateJwkThumbprint, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { SFCECClient } from './client.ts';
import { createApp } from '../app.ts';
import { jcs } from '../audit/chain.ts';
import { exportPublicKey } from './ed25519.ts';
import { hmacSha256 } from './signing-key.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe } from './app-per-describe.test-support.ts';
import { seedDays, tempApp } from './test-support.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

// On each back end: the bundle is built from the evidence stored there, then tampered with.
describe.each(testBackends)('tampering each part of a bundle built on $name', (backend) => {
  const fixture = appPerDescribe(backend);
  let client: SFCECClient;
  let good = '';
  let entries = new Map<string, Buffer>();
  let counter = 0;

  beforeAll(async () => {
    client = new SFCECClient({ app: fixture().app });
    // 01-05 records land between the 01-02 and 01-03 ones in the chain: they become witnesses.
    await seedDays(fixture().app, 'proj', ['2026-01-01', '2026-01-02', '2026-01-05', '2026-01-03', '2026-01-04'], 2);
    good = (await client.buildBundle('proj', ['2026-01-02', '2026-01-03'])).zip_path;
    entries = await readAllEntries(good);
  });

  /** Writes a copy of the good bundle with one entry changed and verifies it. */
  const tampered = async (name: string, change: (bytes: Buffer) => Buffer, options: { key?: string; publicKeys?: string[] } = {}) => {
    const copy = new Map(entries);
    copy.set(name, change(entries.get(name) as Buffer));
    counter += 1;
    const path = join(fixture().dir, `tampered-${counter}.zip`);
    await writeEntries(path, copy);
    return client.verifyBundle(path, options);
  };
  const editJson =
    (edit: (value: Record<string, unknown>) => void) =>
    (bytes: Buffer): Buffer => {
      const value = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      edit(value);
      return Buffer.from(JSON.stringify(value));
    };

  describe('tampering each part of a bundle', () => {
    it('the untouched bundle (rewritten by another ZIP writer) verifies, with witnesses in its proof', async () => {
      const proof = JSON.parse((entries.get('chain_proof.json') as Buffer).toString('utf8')) as {
        witness_count: number;
        record_count: number;
      };
      expect(proof.witness_count).toBe(12);
      expect(proof.record_count).toBe(24);
      const result = await tampered('VERIFY.md', (bytes) => bytes);
      expect(result.errors).toEqual([]);
      expect(result.overall_valid).toBe(true);
    });

    it('a changed record fails the chain and the entry digest', async () => {
      const result = await tampered('score_records/records.ndjson', (bytes) =>
        Buffer.from(bytes.toString('utf8').replace('"value":0.91', '"value":0.99')),
      );
      expect(result.chain_valid).toBe(false);
      expect(result.manifest_valid).toBe(false);
      expect(result.overall_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/hash does not match its content/);
      expect(result.errors.join('\n')).toMatch(/SHA-256 of score_records\/records.ndjson/);
    });

    it('a removed record breaks the chain links', async () => {
      const result = await tampered('drift_events/records.ndjson', (bytes) =>
        Buffer.from(bytes.toString('utf8').split('\n').slice(1).join('\n')),
      );
      expect(result.chain_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/expected seq|does not link/);
    });

    it('a changed witness fails the chain', async () => {
      const result = await tampered(
        'chain_proof.json',
        editJson((proof) => {
          const witnesses = proof.witnesses as { hash: string }[];
          (witnesses[3] as { hash: string }).hash = 'f'.repeat(64);
        }),
      );
      expect(result.chain_valid).toBe(false);
      expect(result.manifest_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/does not link to the previous hash/);
    });

    it('a changed manifest fails the HMAC and the signature', async () => {
      const result = await tampered(
        'manifest.json',
        editJson((manifest) => {
          (manifest.record_counts as Record<string, number>).score_records = 99;
        }),
      );
      expect(result.manifest_valid).toBe(false);
      expect(result.checks.find((check) => check.name === 'hmac')?.status).toBe('fail');
      expect(result.checks.find((check) => check.name === 'signature')?.status).toBe('fail');
    });

    it('a changed clause map fails its digest (same size) or its listed size (before any byte is read)', async () => {
      const sameSize = await tampered('clause_map.json', (bytes) => {
        const changed = bytes.toString('utf8').replace('"schema_version":2', '"schema_version":3');
        expect(changed).not.toBe(bytes.toString('utf8'));
        return Buffer.from(changed);
      });
      expect(sameSize.manifest_valid).toBe(false);
      expect(sameSize.chain_valid).toBe(true);
      expect(sameSize.errors).toEqual(['SHA-256 of clause_map.json does not match the manifest']);
      const result = await tampered(
        'clause_map.json',
        editJson((map) => {
          const first = (map.entries as { status: string }[])[0] as { status: string };
          first.status = first.status === 'GAP' ? 'SATISFIED' : 'GAP';
        }),
      );
      expect(result.manifest_valid).toBe(false);
      expect(result.errors).toEqual([expect.stringMatching(/^clause_map.json: the archive declares \d+ bytes, the manifest lists \d+$/)]);
    });

    it('a changed or missing timestamp fails the timestamp check', async () => {
      const result = await tampered('rfc3161_timestamp.tsr', (bytes) =>
        // The first hex digit of the imprint, changed to another (a fixed '0' left it as it was in 1 of 16 builds).
        Buffer.from(
          bytes.toString('utf8').replace(/imprint-sha256: (.)/, (_m, digit: string) => `imprint-sha256: ${digit === '0' ? '1' : '0'}`),
        ),
      );
      expect(result.timestamp_valid).toBe(false);
      expect(result.manifest_valid).toBe(true);
      expect(result.overall_valid).toBe(false);
      const copy = new Map(entries);
      copy.delete('rfc3161_timestamp.tsr');
      const path = join(fixture().dir, 'no-tsr.zip');
      await writeEntries(path, copy);
      expect((await client.verifyBundle(path)).timestamp_valid).toBe(false);
    });

    it('a corrupted signature fails the signature check', async () => {
      const result = await tampered(
        'attestation.json',
        editJson((attestation) => {
          const jws = attestation.jws as { compact: string };
          jws.compact = `${jws.compact.slice(0, -6)}AAAAAA`;
        }),
      );
      expect(result.manifest_valid).toBe(false);
      expect(result.errors.join('\n')).toMatch(/Ed25519 signature does not verify with any trusted public key/);
    });

    it('a key carried in the bundle is never trusted: a forger with the HMAC key and his own Ed25519 key fails', async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ed25519');
      const jwk = publicKey.export({ format: 'jwk' }) as JWK;
      const kid = await calculateJwkThumbprint(jwk, 'sha256');
      const forged = JSON.parse((entries.get('attestation.json') as Buffer).toString('utf8')) as Record<string, unknown>;
      const payload = Buffer.from(
        JSON.stringify({ bundle_id: forged.bundle_id, manifest_sha256: forged.manifest_sha256, timestamp_kind: forged.timestamp_kind }),
      );
      const compact = await new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid }).sign(privateKey);
      forged.jws = { alg: 'EdDSA', kid, public_jwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, compact };
      const hmacKey = 'test-signing-key-0123456789abcdef';
      const { hmac: _old, ...unsigned } = forged;
      forged.hmac = hmacSha256(hmacKey, jcs(unsigned));
      const forgedBytes = () => Buffer.from(jcs(forged));
      // An auditor with --key alone (no data dir, no trust list): the HMAC passes (the forger has it) but the
      // Ed25519 signature is "not checked", never "valid" on the strength of the key inside the bundle.
      const copy = new Map(entries).set('attestation.json', forgedBytes());
      const forgedPath = join(fixture().dir, 'forged.zip');
      await writeEntries(forgedPath, copy);
      const auditor = createApp({ dataDir: ':memory:', env: {} });
      const keyOnly = await new SFCECClient({ app: auditor }).verifyBundle(forgedPath, { key: hmacKey }).finally(() => auditor.close());
      expect(keyOnly.signatures).toEqual({
        hmac: { checked: true, valid: true, key_id: expect.any(String) },
        ed25519: { checked: false, valid: null, key_id: null, claimed_key_id: kid },
      });
      expect(keyOnly.checks.find((check) => check.name === 'signature')).toMatchObject({
        status: 'skipped',
        summary: 'Ed25519 signature not checked: no trusted public key',
      });
      // With the producer's published key the forgery fails, whatever key the bundle carries.
      const trusted = JSON.stringify((await exportPublicKey(fixture().app)).jwk);
      const result = await tampered('attestation.json', forgedBytes, { key: hmacKey, publicKeys: [trusted] });
      expect(result.manifest_valid).toBe(false);
      expect(result.signatures.ed25519).toMatchObject({ checked: true, valid: false, claimed_key_id: kid });
      expect(result.errors).toEqual([expect.stringMatching(/^Ed25519 signature does not verify with any trusted public key/)]);
    });

    it('verifies with a trusted public key alone (no HMAC key), and fails with the wrong HMAC key', async () => {
      const { pem } = await exportPublicKey(fixture().app);
      const auditor = tempApp({ SVC_SIGNING_KEY: '' });
      const withPem = await new SFCECClient({ app: auditor.app }).verifyBundle(good, { publicKeys: [pem] }).finally(auditor.cleanup);
      expect(withPem.errors).toEqual([]);
      expect(withPem.overall_valid).toBe(true);
      expect(withPem.checks.find((check) => check.name === 'hmac')?.status).toBe('skipped');
      const wrong = await client.verifyBundle(good, { key: 'another-key-0123456789abcdef' });
      expect(wrong.manifest_valid).toBe(false);
      expect(wrong.errors[0]).toMatch(/manifest HMAC does not match/);
    });

    it('re-hashes records whose payload keys are not in canonical order (generic JCS path)', async () => {
      const result = await tampered('score_records/records.ndjson', (bytes) =>
        Buffer.from(
          bytes
            .toString('utf8')
            .split('\n')
            .map((line) => {
              if (line === '') return line;
              const record = JSON.parse(line) as { payload: Record<string, unknown> };
              record.payload = Object.fromEntries(Object.entries(record.payload).reverse());
              return JSON.stringify(record);
            })
            .join('\n'),
        ),
      );
      expect(result.chain_valid).toBe(true);
      expect(result.errors).toEqual(['SHA-256 of score_records/records.ndjson does not match the manifest']);
    });
  });
});
