import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jcs } from '../audit/chain.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { hmacSha256 } from './signing-key.ts';

/** Folder entry of a schema key inside the ZIP (shared by the builder and the verifier). */
export const recordsEntry = (key: SchemaKey): string => `${key}/records.ndjson`;

export const manifestVersion = 1;

const countsSchema = z.object(
  Object.fromEntries(schemaKeys.map((key) => [key, z.number().int().nonnegative()])) as Record<SchemaKey, z.ZodNumber>,
);

/** manifest.json as a verifier parses it (size-capped before parsing). */
export const manifestSchema = z.object({
  schema_version: z.literal(manifestVersion),
  bundle_id: z.string().regex(/^cec-[0-9A-HJKMNP-TV-Z]{26}$/),
  project_id: z.string(),
  org_id: z.string().nullable(),
  date_range: z.object({ from: z.string(), to: z.string() }),
  record_counts: countsSchema,
  total_records: z.number().int().nonnegative(),
  frameworks: z.array(z.string()),
  generated_at: z.string(),
  entries: z.record(z.string(), z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().nonnegative() })),
  key_ids: z.object({ hmac: z.string(), ed25519: z.string() }),
  hmac: z.string().regex(/^hmac-sha256:[0-9a-f]{64}$/),
});
export type Manifest = z.infer<typeof manifestSchema>;
export type UnsignedManifest = Omit<Manifest, 'hmac'>;

/** The bytes the HMAC covers: RFC 8785 JCS of the manifest without its `hmac` field. */
export const manifestSigningInput = (manifest: UnsignedManifest | Manifest): string => {
  const { hmac: _ignored, ...rest } = manifest as Manifest;
  return jcs(rest);
};

/** Signs a manifest with HMAC-SHA256 over its canonical form; returns it with `hmac` set. */
export const signManifest = (manifest: UnsignedManifest, key: string): Manifest => ({
  ...manifest,
  hmac: hmacSha256(key, manifestSigningInput(manifest)),
});

/** The stored bytes of manifest.json: JCS of the signed manifest, so `jq -cS` reproduces them. */
export const manifestBytes = (manifest: Manifest): Buffer => Buffer.from(jcs(manifest), 'utf8');

export const sha256 = (bytes: Uint8Array | string): Buffer => createHash('sha256').update(bytes).digest();
