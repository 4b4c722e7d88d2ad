/**
 * Authenticates a bundle's manifest: the HMAC (when the verifier holds the key) and the Ed25519 JWS against
 * the verifier's trusted public keys. A key carried inside the bundle is never trusted: its kid is only reported.
 */
import type { JWK } from 'jose';
import { type Attestation, attestationSigningInput, jwsPayload } from './attestation.ts';
import { verifyJws } from './ed25519.ts';
import { type Manifest, manifestSigningInput } from './manifest.ts';
import { hmacKeyId, hmacSha256, sameHmac } from './signing-key.ts';
import type { SignatureReport } from './types.ts';
import type { Checks } from './verify-checks.ts';

/** A public key the verifier trusts, with its RFC 7638 thumbprint. */
export type TrustedKey = { readonly kid: string; readonly jwk: JWK };

export type SignatureInput = {
  readonly checks: Checks;
  readonly manifest: Manifest | null;
  readonly manifestDigest: Buffer | null;
  readonly attestation: Attestation | null;
  readonly hmacKey: string | undefined;
  readonly trustedKeys: readonly TrustedKey[];
};

const checkHmac = (input: SignatureInput): SignatureReport['hmac'] => {
  const { checks, manifest, attestation, hmacKey } = input;
  if (hmacKey === undefined || hmacKey === '') {
    checks.note('hmac', 'skipped', 'not checked: no HMAC key given');
    return { checked: false, valid: null, key_id: null };
  }
  const keyId = hmacKeyId(hmacKey);
  if (manifest === null) {
    checks.note('hmac', 'skipped', 'not checked: the manifest did not parse');
    return { checked: false, valid: null, key_id: keyId };
  }
  if (!sameHmac(hmacSha256(hmacKey, manifestSigningInput(manifest)), manifest.hmac))
    checks.fail('hmac', 'manifest HMAC does not match (tampered manifest or wrong key)');
  if (attestation !== null && !sameHmac(hmacSha256(hmacKey, attestationSigningInput(attestation)), attestation.hmac))
    checks.fail('hmac', 'attestation HMAC does not match');
  checks.note('hmac', 'pass', `HMAC-SHA256 of manifest and attestation checked with key id ${keyId}`);
  return { checked: true, valid: checks.passed('hmac'), key_id: keyId };
};

const checkEd25519 = async (input: SignatureInput): Promise<SignatureReport['ed25519']> => {
  const { checks, manifest, attestation, manifestDigest } = input;
  const claimed = attestation?.jws.kid ?? null;
  if (attestation === null) return { checked: false, valid: null, key_id: null, claimed_key_id: null };
  if (manifestDigest === null || attestation.manifest_sha256 !== manifestDigest.toString('hex'))
    checks.fail('signature', 'attestation does not cover this manifest');
  if (manifest !== null && (attestation.bundle_id !== manifest.bundle_id || attestation.project_id !== manifest.project_id))
    checks.fail('signature', 'attestation names another bundle or project');
  if (input.trustedKeys.length === 0) {
    checks.note('signature', 'skipped', 'Ed25519 signature not checked: no trusted public key');
    return { checked: false, valid: null, key_id: null, claimed_key_id: claimed };
  }
  const expected = Buffer.from(jwsPayload(attestation.bundle_id, attestation.manifest_sha256, attestation.timestamp_kind));
  for (const key of input.trustedKeys) {
    const payload = await verifyJws(attestation.jws.compact, key.jwk);
    if (payload !== null && Buffer.from(payload).equals(expected)) {
      checks.note('signature', 'pass', `Ed25519 signature verified with trusted key ${key.kid}`);
      return { checked: true, valid: checks.passed('signature'), key_id: key.kid, claimed_key_id: claimed };
    }
  }
  const ids = input.trustedKeys.map((key) => key.kid).join(', ');
  checks.fail('signature', `Ed25519 signature does not verify with any trusted public key (${ids}); the bundle claims key ${claimed}`);
  return { checked: true, valid: false, key_id: null, claimed_key_id: claimed };
};

/** Runs both signature checks; fills the `hmac` and `signature` checks and returns what was checked. */
export const checkSignatures = async (input: SignatureInput): Promise<SignatureReport> => {
  if (input.attestation === null) input.checks.note('signature', 'fail', 'attestation.json is missing or invalid');
  return { hmac: checkHmac(input), ed25519: await checkEd25519(input) };
};
