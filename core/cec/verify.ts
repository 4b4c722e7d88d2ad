import { constants, accessSync, statSync } from 'node:fs';
import type { JWK } from 'jose';
import { calculateJwkThumbprint } from 'jose';
import type { App } from '../app.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { SFCECVerifyError } from '../errors.ts';
import { attestationSchema, attestationSigningInput, jwsPayload } from './attestation.ts';
import { recordsEntry } from './build.ts';
import { type ChainProof, chainProofSchema } from './chain-proof.ts';
import { parsePublicJwk, verifyJws } from './ed25519.ts';
import { type Manifest, manifestSchema, manifestSigningInput, sha256 } from './manifest.ts';
import { hmacSha256, sameHmac } from './signing-key.ts';
import { verifyTimestamp } from './timestamp/index.ts';
import type { BundleVerificationResult, VerificationCheck } from './types.ts';
import { verifyChain } from './verify-chain.ts';
import { defaultVerifyLimits, type VerifyLimits } from './verify-limits.ts';
import { ArchiveError, InflateBudget, listEntries, openArchive, readEntry, type SafeEntry } from './zip-reader.ts';

export type VerifyOptions = {
  /** HMAC key; default the configured signing key. */
  readonly hmacKey?: string;
  /** A public key the auditor trusts (from the producer); the JWS must verify with it. */
  readonly trustedPublicKey?: JWK;
  readonly trustedCertsPem?: string[];
  readonly limits?: VerifyLimits;
};

type CheckName = VerificationCheck['name'];
/** Entries signed by the manifest digest rather than listed in it. */
const unlisted = new Set(['manifest.json', 'attestation.json', 'rfc3161_timestamp.tsr']);

class Checks {
  readonly #map = new Map<CheckName, VerificationCheck>();
  fail(name: CheckName, message: string): void {
    const check = this.get(name);
    this.#map.set(name, { name, status: 'fail', errors: [...check.errors, message] });
  }
  set(name: CheckName, status: VerificationCheck['status'], errors: string[] = []): void {
    const current = this.#map.get(name);
    if (current?.status === 'fail') this.#map.set(name, { ...current, errors: [...current.errors, ...errors] });
    else this.#map.set(name, { name, status: errors.length > 0 ? 'fail' : status, errors });
  }
  get(name: CheckName): VerificationCheck {
    return this.#map.get(name) ?? { name, status: 'pass', errors: [] };
  }
  passed(name: CheckName): boolean {
    return this.get(name).status === 'pass';
  }
  all(): VerificationCheck[] {
    return (['archive', 'manifest', 'entries', 'hmac', 'signature', 'chain', 'timestamp'] as const).map((name) => this.get(name));
  }
}

const parseJson = <T>(
  bytes: Buffer | undefined,
  name: string,
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
): T | string => {
  if (bytes === undefined) return `${name} is missing`;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return `${name} is not valid JSON`;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : `${name} does not have the expected structure`;
};

const assertReadable = (zipPath: string): void => {
  let isFile = false;
  try {
    isFile = statSync(zipPath).isFile();
    accessSync(zipPath, constants.R_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SFCECVerifyError(code === 'ENOENT' ? 'Bundle file not found' : 'Bundle file is not readable', {
      code: 'NOT_FOUND',
      cause: error,
    });
  }
  if (!isFile) throw new SFCECVerifyError('Bundle path is not a file', { code: 'VALIDATION' });
};

/**
 * Verifies a bundle ZIP from its bytes alone (spec 4.3 plus the Ed25519 attestation). Every failed check lands in
 * `errors`; SFCECVerifyError only when the file is missing or unreadable. Hostile archives fail the `archive`
 * check with a clear message and never inflate past the limits.
 */
export const verifyBundleFile = async (app: App, zipPath: string, options: VerifyOptions = {}): Promise<BundleVerificationResult> => {
  assertReadable(zipPath);
  const limits = options.limits ?? defaultVerifyLimits;
  const checks = new Checks();
  let bundleId = '';
  let timestampKind: BundleVerificationResult['timestamp_kind'] = null;
  let zip: Awaited<ReturnType<typeof openArchive>> | null = null;
  try {
    zip = await openArchive(zipPath);
  } catch (error) {
    // Spec 7: an unreadable ZIP raises; everything readable but wrong is reported as failed checks.
    throw new SFCECVerifyError((error as Error).message.replace(/^not a readable ZIP archive/, 'Bundle is not a readable ZIP archive'), {
      code: 'VALIDATION',
      cause: error,
    });
  }
  try {
    const entries = await listEntries(zip, limits);
    const byName = new Map(entries.map((item) => [item.name, item] as const));
    const budget = new InflateBudget(limits);
    const small = new Map<string, Buffer>();
    for (const [name, cap] of Object.entries(limits.maxJsonBytes)) {
      const item = byName.get(name);
      if (item !== undefined) small.set(name, await readEntry(zip, item, cap, budget));
    }
    const manifestBytes = small.get('manifest.json');
    const manifest = parseJson<Manifest>(manifestBytes, 'manifest.json', manifestSchema);
    if (typeof manifest === 'string') checks.fail('manifest', manifest);
    else bundleId = manifest.bundle_id;
    const digest = manifestBytes === undefined ? null : sha256(manifestBytes);

    const hmacKey = options.hmacKey ?? app.settings.secret('signingKey');
    if (typeof manifest !== 'string') {
      if (hmacKey === undefined || hmacKey === '') checks.set('hmac', 'skipped');
      else if (!sameHmac(hmacSha256(hmacKey, manifestSigningInput(manifest)), manifest.hmac)) {
        checks.fail('hmac', 'manifest HMAC does not match (tampered manifest or wrong key)');
      }
      checkListedEntries(checks, manifest, entries, small);
    } else {
      checks.set('hmac', 'skipped');
      checks.set('entries', 'skipped');
    }

    await checkAttestation(checks, small.get('attestation.json'), digest, manifest, hmacKey, options.trustedPublicKey);

    const tsr = small.get('rfc3161_timestamp.tsr');
    if (tsr === undefined || digest === null) checks.fail('timestamp', 'rfc3161_timestamp.tsr or manifest.json is missing');
    else {
      const stamp = await verifyTimestamp(
        tsr,
        digest,
        options.trustedCertsPem === undefined ? undefined : { trustedCertsPem: options.trustedCertsPem },
      );
      timestampKind = stamp.kind;
      if (!stamp.valid) for (const error of stamp.errors) checks.fail('timestamp', `timestamp: ${error}`);
    }

    const proof = parseJson<ChainProof>(small.get('chain_proof.json'), 'chain_proof.json', chainProofSchema);
    if (typeof proof === 'string') checks.fail('chain', proof);
    else {
      const folders = new Map<SchemaKey, SafeEntry>();
      for (const key of schemaKeys) {
        const item = byName.get(recordsEntry(key));
        if (item !== undefined) folders.set(key, item);
      }
      const scope =
        typeof manifest === 'string'
          ? null
          : { projectId: manifest.project_id, range: [manifest.date_range.from, manifest.date_range.to] as const };
      const chain = await verifyChain({ zip, folders, proof, budget, scope });
      for (const error of chain.errors) checks.fail('chain', error);
      if (typeof manifest !== 'string') {
        for (const [name, actual] of chain.digests) {
          const listed = manifest.entries[name];
          if (listed !== undefined && listed.sha256 !== actual.sha256)
            checks.fail('entries', `SHA-256 of ${name} does not match the manifest`);
        }
        for (const [key, count] of chain.counts) {
          if (manifest.record_counts[key] !== count)
            checks.fail('entries', `${key}: manifest counts ${manifest.record_counts[key]}, folder holds ${count}`);
        }
      }
    }
  } catch (error) {
    if (!(error instanceof ArchiveError)) throw error;
    checks.fail('archive', error.message);
  } finally {
    zip?.close();
  }
  return summarize(checks, bundleId, timestampKind, options.trustedPublicKey !== undefined, app.now());
};

const checkListedEntries = (
  checks: Checks,
  manifest: Manifest,
  entries: readonly SafeEntry[],
  small: ReadonlyMap<string, Buffer>,
): void => {
  const present = new Set(entries.map((item) => item.name));
  for (const item of entries) {
    if (!unlisted.has(item.name) && manifest.entries[item.name] === undefined)
      checks.fail('entries', `entry "${item.name}" is not listed in the manifest`);
  }
  for (const name of Object.keys(manifest.entries)) {
    if (!present.has(name)) checks.fail('entries', `manifest lists "${name}" but the archive lacks it`);
  }
  for (const key of schemaKeys) {
    if (manifest.entries[recordsEntry(key)] === undefined) checks.fail('entries', `manifest does not list ${recordsEntry(key)}`);
  }
  for (const [name, bytes] of small) {
    const listed = manifest.entries[name];
    if (listed !== undefined && listed.sha256 !== sha256(bytes).toString('hex'))
      checks.fail('entries', `SHA-256 of ${name} does not match the manifest`);
  }
};

const checkAttestation = async (
  checks: Checks,
  bytes: Buffer | undefined,
  digest: Buffer | null,
  manifest: Manifest | string,
  hmacKey: string | undefined,
  trusted: JWK | undefined,
): Promise<void> => {
  const attestation = parseJson(bytes, 'attestation.json', attestationSchema);
  if (typeof attestation === 'string') return checks.fail('signature', attestation);
  if (digest === null || attestation.manifest_sha256 !== digest.toString('hex'))
    checks.fail('signature', 'attestation does not cover this manifest');
  if (typeof manifest !== 'string' && attestation.bundle_id !== manifest.bundle_id)
    checks.fail('signature', 'attestation names another bundle');
  if (hmacKey !== undefined && hmacKey !== '' && !sameHmac(hmacSha256(hmacKey, attestationSigningInput(attestation)), attestation.hmac)) {
    checks.fail('signature', 'attestation HMAC does not match');
  }
  const expected = Buffer.from(jwsPayload(attestation.bundle_id, attestation.manifest_sha256)).toString('hex');
  const embedded = parsePublicJwk(attestation.jws.public_jwk);
  if (embedded === null) return checks.fail('signature', 'attestation carries no Ed25519 public key');
  if ((await calculateJwkThumbprint(embedded, 'sha256')) !== attestation.jws.kid)
    checks.fail('signature', 'attestation kid is not the thumbprint of its key');
  const payload = await verifyJws(attestation.jws.compact, embedded);
  if (payload === null || Buffer.from(payload).toString('hex') !== expected)
    checks.fail('signature', 'Ed25519 signature does not verify with the embedded key');
  if (trusted !== undefined) {
    const trustedPayload = await verifyJws(attestation.jws.compact, trusted);
    if (trustedPayload === null || Buffer.from(trustedPayload).toString('hex') !== expected) {
      checks.fail('signature', 'Ed25519 signature does not verify with the trusted public key');
    }
  }
  return undefined;
};

const summarize = (
  checks: Checks,
  bundleId: string,
  timestampKind: BundleVerificationResult['timestamp_kind'],
  trustedKey: boolean,
  now: Date,
): BundleVerificationResult => {
  if (checks.get('hmac').status === 'skipped' && !trustedKey && checks.passed('manifest')) {
    checks.fail('hmac', 'no HMAC key available and no trusted public key given: the manifest cannot be authenticated');
  }
  const archive = checks.passed('archive');
  const hmacOk = checks.passed('hmac') || (checks.get('hmac').status === 'skipped' && trustedKey);
  const manifestValid = archive && checks.passed('manifest') && checks.passed('entries') && hmacOk && checks.passed('signature');
  const chainValid = archive && checks.passed('chain');
  const timestampValid = archive && checks.passed('timestamp');
  const all = checks
    .all()
    .map(
      (check): VerificationCheck =>
        archive || check.name === 'archive' || check.status === 'fail' ? check : { ...check, status: 'skipped' },
    );
  return {
    bundle_id: bundleId,
    manifest_valid: manifestValid,
    chain_valid: chainValid,
    timestamp_valid: timestampValid,
    overall_valid: manifestValid && chainValid && timestampValid,
    errors: all.flatMap((check) => check.errors),
    verified_at: now.toISOString(),
    checks: all,
    timestamp_kind: timestampKind,
  };
};
