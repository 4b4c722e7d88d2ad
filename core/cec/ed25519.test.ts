/**
 * The build thumbprints and signs without jose (ed25519.ts); what it writes must be what jose writes, byte for
 * byte, so bundles and key ids are unchanged and jose (which the verifier still uses) accepts them.
 */
import { generateKeyPairSync } from 'node:crypto';
import { CompactSign, calculateJwkThumbprint, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { type AttestationKey, jwkThumbprint, signJws, verifyJws } from './ed25519.ts';

const keys = Array.from({ length: 8 }, () => generateKeyPairSync('ed25519'));

describe('Ed25519 thumbprints and signatures without jose', () => {
  it.each(keys.map((key, i) => [i, key] as const))(
    "key %i: the thumbprint and compact JWS are jose's",
    async (_, { privateKey, publicKey }) => {
      const jwk = publicKey.export({ format: 'jwk' }) as JWK;
      const kid = await jwkThumbprint(jwk);
      expect(kid).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
      const key: AttestationKey = { privateKey, publicJwk: jwk, kid };
      const payload = Buffer.from(JSON.stringify({ bundle_id: 'cec-x', manifest_sha256: 'ab'.repeat(32), ü: '"\n' }));
      const jws = await signJws(key, payload);
      expect(jws).toBe(await new CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid }).sign(privateKey));
      expect(Buffer.from((await verifyJws(jws, jwk)) ?? [])).toEqual(payload);
    },
  );

  it('refuses to thumbprint a key that is not an OKP public key', async () => {
    await expect(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'a', y: 'b' })).rejects.toThrow(TypeError);
    await expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519' })).rejects.toThrow(TypeError);
  });
});
