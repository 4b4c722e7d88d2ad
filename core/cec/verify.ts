import { constants, accessSync, statSync } from 'node:fs';
import type { App } from '../app.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { SFCECVerifyError } from '../errors.ts';
import { type Attestation, attestationSchema } from './attestation.ts';
import { type ChainProof, chainProofSchema } from './chain-proof.ts';
import { type Manifest, manifestSchema, recordsEntry, sha256 } from './manifest.ts';
import type { AnchorReport, BundleVerificationResult, SignatureReport, TimestampReport } from './types.ts';
import { finishHeldAnchorCheck, type HeldAnchors, HeldAnchorCheck } from './held-anchors.ts';
import { finishAnchorCheck, startAnchorCheck } from './verify-anchors.ts';
import { FolderWorkerPool } from './folder-workers.ts';
import { threadsForFolders, verifyChain } from './verify-chain.ts';
import { Checks } from './verify-checks.ts';
import { parseSignedJson } from './verify-json.ts';
import { defaultVerifyLimits, type VerifyLimits } from './verify-limits.ts';
import { checkSignatures, type TrustedKey } from './verify-signature.ts';
import { checkTimestamp } from './verify-timestamp.ts';
import { ArchiveError, EntryReader, readEntry, UnreadableArchiveError } from './zip-reader.ts';
import { openStrictZip, type StrictZip, type ZipEntry } from './zip-strict.ts';

export type VerifyOptions = {
  /** HMAC key; without one the HMAC is reported "not checked" (callers pick the default, see client.ts). */
  readonly hmacKey?: string;
  /** Ed25519 public keys the verifier trusts; a key inside the bundle is never trusted. */
  readonly trustedKeys?: readonly TrustedKey[];
  /** PEM trust anchors (TSA roots) a real RFC 3161 token must chain to. */
  readonly tsaTrustAnchorsPem?: readonly string[];
  /** Anchors the verifier kept from the producer's export (`svc verify --anchors`), compared with the chain too. */
  readonly heldAnchors?: HeldAnchors;
  readonly limits?: VerifyLimits;
};

/** Entries signed by the manifest digest rather than listed in it; read with the caps of verify-limits.ts. */
const signingEntries = ['manifest.json', 'attestation.json', 'rfc3161_timestamp.tsr'] as const;

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

const unchecked: SignatureReport = {
  hmac: { checked: false, valid: null, key_id: null },
  ed25519: { checked: false, valid: null, key_id: null, claimed_key_id: null },
};

type State = {
  readonly checks: Checks;
  readonly zip: StrictZip;
  readonly limits: VerifyLimits;
  readonly workers: FolderWorkerPool;
  manifest: Manifest | null;
  signatures: SignatureReport;
  timestamp: TimestampReport | null;
  anchors: AnchorReport | null;
};

/** Reads the entry when present, within the cap its name has in the limits. */
const readCapped = async (state: State, name: string, cap: number): Promise<Buffer | undefined> => {
  const entry = state.zip.files.get(name);
  return entry === undefined ? undefined : readEntry(state.zip, entry, cap);
};

/**
 * Manifest-driven entry check: every file in the ZIP is listed (or is one of the three signing entries), every
 * listed entry is present with the listed size, and every listed entry is hashed (the NDJSON folders while the
 * chain is verified). Returns the entries whose declared size matches the listing (the only ones read).
 */
const checkEntries = async (state: State, manifest: Manifest): Promise<Map<string, ZipEntry>> => {
  const { checks, zip } = state;
  const readable = new Map<string, ZipEntry>();
  for (const name of zip.files.keys()) {
    if (!(signingEntries as readonly string[]).includes(name) && manifest.entries[name] === undefined)
      checks.fail('entries', `entry ${JSON.stringify(name)} is not listed in the manifest`);
  }
  for (const [name, listed] of Object.entries(manifest.entries)) {
    const entry = zip.files.get(name);
    if (entry === undefined) checks.fail('entries', `manifest lists ${JSON.stringify(name)} but the archive lacks it`);
    else if (entry.uncompressedSize !== listed.size)
      checks.fail('entries', `${name}: the archive declares ${entry.uncompressedSize} bytes, the manifest lists ${listed.size}`);
    else readable.set(name, entry);
  }
  for (const key of schemaKeys) {
    if (manifest.entries[recordsEntry(key)] === undefined) checks.fail('entries', `manifest does not list ${recordsEntry(key)}`);
  }
  const folders = new Set<string>(schemaKeys.map(recordsEntry));
  for (const [name, entry] of readable) {
    if (folders.has(name)) continue;
    const reader = new EntryReader(zip, entry);
    for await (const _chunk of reader.chunks());
    if (reader.sha256() !== manifest.entries[name]?.sha256) checks.fail('entries', `SHA-256 of ${name} does not match the manifest`);
  }
  return readable;
};

const checkChainAndFolders = async (
  state: State,
  manifest: Manifest,
  readable: ReadonlyMap<string, ZipEntry>,
  options: VerifyOptions,
): Promise<void> => {
  const { checks } = state;
  const proofEntry = readable.get('chain_proof.json');
  const proofBytes =
    proofEntry === undefined ? undefined : await readEntry(state.zip, proofEntry, state.limits.maxJsonBytes['chain_proof.json'] ?? 0);
  const proof = parseSignedJson<ChainProof>(proofBytes, 'chain_proof.json', chainProofSchema, false);
  if (typeof proof === 'string') return checks.fail('chain', proof);
  const folders = new Map<SchemaKey, ZipEntry>();
  for (const key of schemaKeys) {
    const entry = readable.get(recordsEntry(key));
    if (entry !== undefined) folders.set(key, entry);
  }
  const anchorsEntry = readable.get('anchors.json');
  const trust = {
    trustedKeys: (options.trustedKeys ?? []).map((key) => key.jwk),
    trustedCertsPem: [...(options.tsaTrustAnchorsPem ?? [])],
  };
  const anchors = await startAnchorCheck(
    checks,
    anchorsEntry === undefined ? undefined : await readEntry(state.zip, anchorsEntry, state.limits.maxJsonBytes['anchors.json'] ?? 0),
    manifest.project_id,
    trust,
  );
  const held = options.heldAnchors === undefined ? null : await HeldAnchorCheck.prepare(options.heldAnchors, manifest.project_id, trust);
  const onLink = (seq: number, hash: string, recordedAt: string | null): void => {
    anchors?.onLink(seq, hash, recordedAt);
    held?.onLink(seq, hash);
  };
  const chain = await verifyChain({
    ...(anchors === null && held === null ? {} : { onLink }),
    zip: state.zip,
    folders,
    proof,
    maxLineBytes: state.limits.maxLineBytes,
    maxDepth: state.limits.maxDepth,
    parallelFolderBytes: state.limits.parallelFolderBytes,
    workers: state.workers,
    scope: { projectId: manifest.project_id, range: [manifest.date_range.from, manifest.date_range.to] },
  });
  for (const error of chain.errors) checks.fail('chain', error);
  state.anchors = finishAnchorCheck(checks, anchors, proof.segment);
  finishHeldAnchorCheck(checks, held, proof.segment, anchors?.bridge ?? []);
  checks.note('chain', 'pass', `${proof.record_count} records re-hashed and linked with ${proof.witness_count} witnesses`);
  for (const [name, actual] of chain.digests) {
    if (manifest.entries[name]?.sha256 !== actual.sha256) checks.fail('entries', `SHA-256 of ${name} does not match the manifest`);
  }
  for (const [key, count] of chain.counts) {
    if (manifest.record_counts[key] !== count)
      checks.fail('entries', `${key}: manifest counts ${manifest.record_counts[key]}, folder holds ${count}`);
  }
  const total = [...chain.counts.values()].reduce((sum, count) => sum + count, 0);
  if (manifest.total_records !== total)
    checks.fail('entries', `manifest totals ${manifest.total_records} records, its folders hold ${total}`);
  return undefined;
};

const verifyContents = async (state: State, options: VerifyOptions): Promise<void> => {
  const { checks, limits } = state;
  const small = new Map<string, Buffer | undefined>();
  for (const name of signingEntries) small.set(name, await readCapped(state, name, limits.maxJsonBytes[name] ?? 0));
  const manifestBytes = small.get('manifest.json');
  const manifest = parseSignedJson<Manifest>(manifestBytes, 'manifest.json', manifestSchema);
  if (typeof manifest === 'string') checks.fail('manifest', manifest);
  else {
    state.manifest = manifest;
    checks.note('manifest', 'pass', `manifest of ${manifest.bundle_id} lists ${Object.keys(manifest.entries).length} entries`);
  }
  const digest = manifestBytes === undefined ? null : sha256(manifestBytes);
  const attestation = parseSignedJson<Attestation>(small.get('attestation.json'), 'attestation.json', attestationSchema);
  if (typeof attestation === 'string') checks.fail('signature', attestation);
  state.signatures = await checkSignatures({
    checks,
    manifest: state.manifest,
    manifestDigest: digest,
    attestation: typeof attestation === 'string' ? null : attestation,
    hmacKey: options.hmacKey,
    trustedKeys: options.trustedKeys ?? [],
  });
  state.timestamp = await checkTimestamp({
    checks,
    token: small.get('rfc3161_timestamp.tsr'),
    digest,
    signedKind: typeof attestation === 'string' ? null : attestation.timestamp_kind,
    trustAnchorsPem: options.tsaTrustAnchorsPem ?? [],
  });
  if (state.manifest === null) return;
  const readable = await checkEntries(state, state.manifest);
  await checkChainAndFolders(state, state.manifest, readable, options);
  checks.note('entries', 'pass', `every entry is listed in the manifest and matches its SHA-256`);
};

/**
 * Verifies a bundle ZIP from its bytes and the verifier's own trust inputs (HMAC key, trusted public keys, TSA
 * roots). Every failed check lands in `errors` with its reason; SFCECVerifyError only when the file is missing
 * or not a ZIP at all. The archive is parsed by the strict reader first; entries are read only as the manifest
 * lists them and never past the listed size.
 */
export const verifyBundleFile = async (
  app: Pick<App, 'now'>,
  zipPath: string,
  options: VerifyOptions = {},
): Promise<BundleVerificationResult> => {
  assertReadable(zipPath);
  const limits = options.limits ?? defaultVerifyLimits;
  const checks = new Checks();
  let state: State | null = null;
  try {
    const zip = openStrictZip(zipPath, limits);
    // Folder workers start now, as the central directory declares the folders (the chain check reads them only
    // once the manifest lists them): their start-up overlaps the signature, timestamp and entry checks.
    const declared = schemaKeys.flatMap((key) => zip.files.get(recordsEntry(key)) ?? []);
    const workers = new FolderWorkerPool(Math.max(0, threadsForFolders(declared, limits.parallelFolderBytes) - 1));
    state = { checks, zip, limits, workers, manifest: null, signatures: unchecked, timestamp: null, anchors: null };
    checks.note('archive', 'pass', `${zip.files.size} entries; one reading of the ZIP structure`);
    try {
      await verifyContents(state, options);
    } finally {
      await workers.close();
      zip.close();
    }
  } catch (error) {
    if (error instanceof UnreadableArchiveError)
      throw new SFCECVerifyError(`Bundle is not a readable ZIP archive: ${error.message}`, { code: 'VALIDATION', cause: error });
    if (!(error instanceof ArchiveError)) throw error;
    checks.fail('archive', error.message);
  }
  return summarize(checks, state, app.now());
};

const summarize = (checks: Checks, state: State | null, now: Date): BundleVerificationResult => {
  const archive = checks.passed('archive');
  const authenticated = checks.passed('hmac') || checks.passed('signature');
  const noBadSignature = checks.get('hmac').status !== 'fail' && checks.get('signature').status !== 'fail';
  if (archive && !authenticated && noBadSignature)
    checks.fail('signature', 'the manifest is not authenticated: give the HMAC key or a trusted public key');
  const all = checks
    .all()
    .map((check) => (archive || check.name === 'archive' || check.status === 'fail' ? check : { ...check, status: 'skipped' as const }));
  const manifestValid = archive && checks.passed('manifest') && checks.passed('entries') && authenticated && noBadSignature;
  // An anchor the chain contradicts means the history was rewritten after anchoring: the chain is not valid.
  const chainValid = archive && checks.passed('chain') && checks.get('anchors').status !== 'fail';
  const timestampValid = archive && checks.passed('timestamp');
  return {
    bundle_id: state?.manifest?.bundle_id ?? '',
    manifest_valid: manifestValid,
    chain_valid: chainValid,
    timestamp_valid: timestampValid,
    overall_valid: manifestValid && chainValid && timestampValid,
    errors: all.flatMap((check) => check.errors),
    verified_at: now.toISOString(),
    checks: all,
    signatures: state?.signatures ?? unchecked,
    timestamp: state?.timestamp ?? null,
    timestamp_kind: state?.timestamp?.kind ?? null,
    anchors: state?.anchors ?? null,
  };
};
