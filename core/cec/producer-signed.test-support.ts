/**
 * Test support: what a producer holding both keys can build. A bundle's entries are edited, every listed entry
 * re-hashed into the manifest, and the manifest re-signed (HMAC + the app's Ed25519 key) with a stub timestamp,
 * so only the verifier's own rules (not a signature) can refuse the result.
 */
import type { App } from '../app.ts';
import { jcs } from '../audit/chain.ts';
import { createAttestation } from './attestation.ts';
import { attestationKey } from './ed25519.ts';
import { type Manifest, manifestBytes, sha256, signManifest } from './manifest.ts';
import { hmacKeyId } from './signing-key.ts';
import { createStub } from './timestamp/stub.ts';
import { writeEntries } from './zip-fixtures.ts';

export type ProducerOptions = {
  /** An RFC 3161 token for the manifest digest (else a stub timestamp). */
  readonly token?: (digest: Buffer) => Promise<Buffer>;
  /** Another spelling of the signed manifest's canonical bytes, signed as they are. */
  readonly respell?: (manifest: Buffer) => Buffer;
};

const signingEntries = new Set(['manifest.json', 'attestation.json', 'rfc3161_timestamp.tsr']);

/** Writes `entries` to `out` as a bundle signed by `app` with HMAC key `key`; every other entry is listed. */
export const writeProducerSigned = async (
  app: App,
  key: string,
  entries: Map<string, Buffer>,
  out: string,
  options: ProducerOptions = {},
): Promise<string> => {
  const { hmac: _hmac, ...manifest } = JSON.parse((entries.get('manifest.json') as Buffer).toString('utf8')) as Manifest;
  manifest.entries = {};
  for (const [name, bytes] of entries) {
    if (!signingEntries.has(name)) manifest.entries[name] = { sha256: sha256(bytes).toString('hex'), size: bytes.length };
  }
  const canonical = manifestBytes(signManifest(manifest, key));
  const bytes = options.respell?.(canonical) ?? canonical;
  const digest = sha256(bytes);
  const attestation = await createAttestation({
    bundleId: manifest.bundle_id,
    projectId: manifest.project_id,
    generatedAt: manifest.generated_at,
    manifestSha256: digest.toString('hex'),
    timestampKind: options.token === undefined ? 'stub' : 'rfc3161',
    hmacKey: key,
    hmacKeyId: hmacKeyId(key),
    key: await attestationKey(app),
  });
  const signed = new Map(entries).set('manifest.json', bytes).set('attestation.json', Buffer.from(jcs(attestation)));
  signed.set('rfc3161_timestamp.tsr', options.token === undefined ? createStub(digest, new Date()) : await options.token(digest));
  await writeEntries(out, signed);
  return out;
};
