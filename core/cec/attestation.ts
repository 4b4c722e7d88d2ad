import { z } from 'zod';
import { jcs } from '../audit/chain.ts';
import { type AttestationKey, signJws } from './ed25519.ts';
import { hmacSha256 } from './signing-key.ts';

/** 2: the JWS payload also signs the timestamp kind (version 1 left it to the HMAC alone). */
export const attestationVersion = 2;

/** attestation.json as a verifier parses it. */
export const attestationSchema = z.object({
  schema_version: z.literal(attestationVersion),
  bundle_id: z.string(),
  project_id: z.string(),
  generated_at: z.string(),
  manifest_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  timestamp_kind: z.enum(['rfc3161', 'stub']),
  signer: z.object({ product: z.string(), hmac_key_id: z.string() }),
  jws: z.object({ alg: z.literal('EdDSA'), kid: z.string(), public_jwk: z.unknown(), compact: z.string().max(4096) }),
  hmac: z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/),
});
export type Attestation = z.infer<typeof attestationSchema>;

/** The JWS payload: what the Ed25519 signature commits to (JCS bytes), the timestamp kind included. */
export const jwsPayload = (bundleId: string, manifestSha256: string, timestampKind: 'rfc3161' | 'stub'): string =>
  jcs({ bundle_id: bundleId, manifest_sha256: manifestSha256, timestamp_kind: timestampKind });

/** HMAC input of the attestation: JCS without its `hmac` field. */
export const attestationSigningInput = (attestation: Omit<Attestation, 'hmac'> | Attestation): string => {
  const { hmac: _ignored, ...rest } = attestation as Attestation;
  return jcs(rest);
};

/** Builds attestation.json: metadata signed with the HMAC key plus an Ed25519 JWS over the manifest digest. */
export const createAttestation = async (input: {
  bundleId: string;
  projectId: string;
  generatedAt: string;
  manifestSha256: string;
  timestampKind: 'rfc3161' | 'stub';
  hmacKey: string;
  hmacKeyId: string;
  key: AttestationKey;
}): Promise<Attestation> => {
  const compact = await signJws(input.key, Buffer.from(jwsPayload(input.bundleId, input.manifestSha256, input.timestampKind)));
  const unsigned: Omit<Attestation, 'hmac'> = {
    schema_version: attestationVersion,
    bundle_id: input.bundleId,
    project_id: input.projectId,
    generated_at: input.generatedAt,
    manifest_sha256: input.manifestSha256,
    timestamp_kind: input.timestampKind,
    signer: { product: 'svc compliance workbench', hmac_key_id: input.hmacKeyId },
    jws: { alg: 'EdDSA', kid: input.key.kid, public_jwk: input.key.publicJwk, compact },
  };
  return { ...unsigned, hmac: hmacSha256(input.hmacKey, attestationSigningInput(unsigned)) };
};
