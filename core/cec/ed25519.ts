import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { z } from 'zod';
import type { App } from '../app.ts';
import { jcs } from '../audit/chain.ts';
import { service } from '../app-service.ts';

export type AttestationKey = {
  readonly privateKey: KeyObject;
  readonly publicJwk: JWK;
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key. */
  readonly kid: string;
};

/**
 * jose is imported on first use: `svc verify --key` (HMAC only) never signs, verifies a JWS or computes a
 * thumbprint, and importing jose was ~5-10 ms of its start-up (docs/decisions.md, "Verify speed, fifth pass").
 */
const jose = () => import('jose');

/** RFC 7638 thumbprint (SHA-256, base64url) of a public JWK: the key id everywhere keys are named. */
export const jwkThumbprint = async (jwk: JWK): Promise<string> => (await jose()).calculateJwkThumbprint(jwk, 'sha256');

const publicJwkSchema = z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string().min(40).max(60) });

const fromPrivate = async (privateKey: KeyObject): Promise<AttestationKey> => {
  const exported = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicJwk: JWK = { kty: 'OKP', crv: 'Ed25519', x: String(exported.x) };
  return { privateKey, publicJwk, kid: await jwkThumbprint(publicJwk) };
};

const keyFile = (dataDir: string): string => join(dataDir, 'cec', 'ed25519-attestation-key.pem');

/** Loads the install's Ed25519 key, generating it once (PKCS#8 PEM, mode 0600, in the data dir). */
const loadOrCreate = (app: App): KeyObject => {
  if (app.dataDir === null) return generateKeyPairSync('ed25519').privateKey;
  const file = keyFile(app.dataDir);
  if (existsSync(file)) return createPrivateKey(readFileSync(file));
  mkdirSync(join(app.dataDir, 'cec'), { recursive: true, mode: 0o700 });
  const { privateKey } = generateKeyPairSync('ed25519');
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return privateKey;
};

/** The per-install attestation key (memoized per app). */
export const attestationKey = (app: App): Promise<AttestationKey> =>
  service(app, 'cec.attestationKey', (current) => fromPrivate(loadOrCreate(current)));

/** Compact JWS (alg EdDSA) over the given payload bytes. */
export const signJws = async (key: AttestationKey, payload: Uint8Array): Promise<string> =>
  new (await jose()).CompactSign(payload).setProtectedHeader({ alg: 'EdDSA', kid: key.kid }).sign(key.privateKey);

/** Parses an untrusted public JWK (Ed25519 only). Returns null when it is not one. */
export const parsePublicJwk = (value: unknown): JWK | null => {
  const parsed = publicJwkSchema.safeParse(value);
  return parsed.success ? { kty: 'OKP', crv: 'Ed25519', x: parsed.data.x } : null;
};

/** Verifies a compact JWS with a public JWK; returns the payload or null (never throws on bad input). */
export const verifyJws = async (jws: string, jwk: JWK): Promise<Uint8Array | null> => {
  const { compactVerify, importJWK } = await jose();
  try {
    const key = await importJWK(jwk, 'EdDSA');
    const { payload, protectedHeader } = await compactVerify(jws, key, { algorithms: ['EdDSA'] });
    // Only the header signJws writes, in JCS: an extension (crit, b64), a duplicate member or another spelling
    // could be read otherwise by another verifier.
    const { kid } = protectedHeader;
    const written = typeof kid === 'string' ? Buffer.from(jcs({ alg: 'EdDSA', kid })).toString('base64url') : null;
    return jws.slice(0, jws.indexOf('.')) === written ? payload : null;
  } catch {
    return null;
  }
};

/** Reads a trusted public key given as a JWK (JSON) or an SPKI PEM. Throws AppError-free TypeError on garbage. */
export const readTrustedPublicKey = (text: string): JWK => {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const jwk = parsePublicJwk(JSON.parse(trimmed));
    if (jwk === null) throw new TypeError('public key JSON is not an Ed25519 JWK');
    return jwk;
  }
  const exported = createPublicKey(trimmed).export({ format: 'jwk' });
  const jwk = parsePublicJwk(exported);
  if (jwk === null) throw new TypeError('public key is not Ed25519');
  return jwk;
};

/** The public half as JWK and SPKI PEM, for `cec.publicKey` and auditors. */
export const exportPublicKey = async (app: App): Promise<{ kid: string; jwk: JWK; pem: string }> => {
  const key = await attestationKey(app);
  const pem = createPublicKey(key.privateKey).export({ format: 'pem', type: 'spki' }).toString();
  return { kid: key.kid, jwk: key.publicJwk, pem };
};
