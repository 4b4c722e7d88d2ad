import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
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
 * jose is imported on first use, for verifying only: `svc verify --key` (HMAC only) never verifies a JWS, and
 * importing jose was ~5-10 ms of its start-up (docs/decisions.md, "Verify speed, fifth pass"). A bundle build
 * thumbprints and signs with node:crypto: loading jose there was ~75 ms before the pass began ("sixth pass").
 */
const jose = () => import('jose');

const base64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');

/**
 * RFC 7638 thumbprint (SHA-256, base64url) of a public JWK: the key id everywhere keys are named. An OKP key's
 * required members in lexicographic order, no whitespace (jose's calculateJwkThumbprint gives the same).
 */
export const jwkThumbprint = async (jwk: JWK): Promise<string> => {
  if (jwk.kty !== 'OKP' || typeof jwk.crv !== 'string' || typeof jwk.x !== 'string') throw new TypeError('not an OKP public JWK');
  return createHash('sha256')
    .update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x }))
    .digest('base64url');
};

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
export const signJws = async (key: AttestationKey, payload: Uint8Array): Promise<string> => {
  // RFC 7515 compact serialization; Ed25519 signatures are deterministic, so these are jose's bytes too.
  const input = `${base64url(JSON.stringify({ alg: 'EdDSA', kid: key.kid }))}.${base64url(payload)}`;
  return `${input}.${base64url(sign(null, Buffer.from(input), key.privateKey))}`;
};

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
