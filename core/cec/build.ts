import { mkdirSync, rmSync, statSync } from 'node:fs';
import { ulid } from 'ulid';
import type { App } from '../app.ts';
import { jcs } from '../audit/chain.ts';
import { countUpTo } from '../audit/evidence-rows.ts';
import { countEvidence } from '../audit/store.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { SFCECBuildError } from '../errors.ts';
import { createAttestation } from './attestation.ts';
import { bundleAnchors } from './bundle-anchors.ts';
import { bundleFileName, pathInside } from './bundle-path.ts';
import type { FrameworkId } from './clauses/index.ts';
import { clauseMapForBuild } from './clauses/build-clause-map.ts';
import { frameworkClauses } from './clauses/catalog.ts';
import { type AttestationKey, attestationKey } from './ed25519.ts';
import { HashingZip, single } from './hashing-zip.ts';
import { manifestBytes, manifestVersion, recordsEntry, sha256, signManifest } from './manifest.ts';
import { collectSegment } from './segment-pass.ts';
import { segmentWorkerRecords } from './segment-split.ts';
import { hmacKeyId } from './signing-key.ts';
import { createTimestamp } from './timestamp/index.ts';
import type { DateRange } from './types.ts';
import { verifyMarkdown } from './verify-md.ts';

export type BuildParams = {
  readonly projectId: string;
  readonly range: DateRange;
  readonly frameworks: readonly FrameworkId[];
  readonly orgId: string | null;
  readonly hmacKey: string;
  readonly outputDir: string;
  /** Deflate level 0-9 of the NDJSON folders (default: defaultRecordsLevel). */
  readonly compressionLevel?: number;
  readonly onProgress?: (done: number, total: number, message: string) => void;
  /** In-range records from which the segment pass is split over two threads (default: segmentWorkerRecords). */
  readonly splitFrom?: number;
};

/** What the writer produced; the client adds the registry fields (download URL, expiry). */
export type BuiltBundle = {
  readonly bundle_id: string;
  readonly zip_path: string;
  readonly hmac_manifest: string;
  readonly record_counts: Record<SchemaKey, number>;
  readonly frameworks_covered: string[];
  readonly generated_at: string;
  readonly size_bytes: number;
};

/**
 * Deflate level of the NDJSON folders. Level 1 deflates evidence NDJSON about twice as fast as level 6 for a
 * ZIP a few percent larger (docs/decisions.md ("Evidence bundles") has the measurement); the small JSON entries use 6.
 */
export const defaultRecordsLevel = 1;
const jsonLevel = 6;

type TailInputs = { readonly key: AttestationKey; readonly timestampKind: 'stub' | 'rfc3161' };

/**
 * What the ZIP's last entries need that the pass does not: the attestation key, the timestamp kind (the first
 * read of the settings parses them) and the frameworks' clause catalogs. Their first use costs ~20 ms of cold
 * code; done while the segment worker starts, that time comes out of the single-threaded tail of the build.
 */
const tailInputs = async (app: App, frameworks: readonly FrameworkId[]): Promise<TailInputs> => {
  for (const framework of frameworks) frameworkClauses(framework);
  return { key: await attestationKey(app), timestampKind: app.settings.get().tsaUrl === '' ? 'stub' : 'rfc3161' };
};

/**
 * Writes a bundle ZIP. One pass over the chain segment (records to per-key temp files, witnesses, chain
 * verification), then the entries stream into the ZIP in order: folders, chain proof, clause map, VERIFY.md,
 * the signed manifest (which lists the digests of all of those), the timestamp and the attestation over the
 * manifest digest. Memory stays flat whatever the record count; a failure leaves nothing in the output dir.
 */
export const writeBundle = async (app: App, params: BuildParams): Promise<BuiltBundle> => {
  const bundleId = `cec-${ulid()}`;
  const generatedAt = app.now().toISOString();
  const [from, to] = params.range;
  mkdirSync(params.outputDir, { recursive: true });
  // Each bundle in its own directory: project ids that differ only in characters the file name drops
  // (`proj_x`, `proj:x`) get the same spec file name, and must neither collide nor replace each other.
  const bundleDir = pathInside(params.outputDir, bundleId);
  const finalPath = pathInside(bundleDir, bundleFileName(params.projectId, params.range));
  const workDir = pathInside(params.outputDir, `.${bundleId}.parts`);
  // Whether to split the pass needs only "at least splitFrom records"; the full count (for progress) runs once
  // the segment worker has started, so that its 0.2 s at 1M records do not delay the worker.
  const splitFrom = params.splitFrom ?? segmentWorkerRecords;
  const query = { projectId: params.projectId, from, to };
  const enough = Number.isFinite(splitFrom) ? await countUpTo(app.database, query, Math.max(1, splitFrom)) : 0;
  let total = enough;
  const hmacId = hmacKeyId(params.hmacKey);
  mkdirSync(workDir, { mode: 0o700 });
  mkdirSync(bundleDir, { mode: 0o700 });
  const clauseMap = clauseMapForBuild(app, { projectId: params.projectId, from, to, frameworks: params.frameworks });
  // Prepared once, in beforePass, and read when the ZIP's tail is written.
  let tail: Promise<TailInputs> | undefined;
  const tailReady = (): Promise<TailInputs> => (tail ??= tailInputs(app, params.frameworks));
  try {
    const level = params.compressionLevel ?? defaultRecordsLevel;
    const segment = await collectSegment(app, params.projectId, params.range, workDir, level, {
      records: enough,
      splitFrom,
      beforePass: async () => {
        // The full count only sizes progress reports: a build nobody watches does not read it.
        if (params.onProgress !== undefined) total = Object.values(await countEvidence(app.database, query)).reduce((a, b) => a + b, 0);
        await tailReady();
      },
      tally: clauseMap.tally,
      onProgress: (done, message) => params.onProgress?.(done, total, message),
    });
    const counts = segment.counts;
    const { key, timestampKind: expectedKind } = await tailReady();
    const zip = new HashingZip(new Date(generatedAt));
    let manifestDigest: Buffer | null = null;
    let hmacManifest = '';
    let timestampKind: 'rfc3161' | 'stub' = 'stub';
    const digest = (): Buffer => {
      if (manifestDigest === null) throw new SFCECBuildError('manifest was not written before the entries that sign it');
      return manifestDigest;
    };

    for (const schemaKey of schemaKeys) zip.addDeflated(recordsEntry(schemaKey), async () => segment.recordFiles[schemaKey]);
    zip.addDeflated('chain_proof.json', async () => segment.chainProof);
    zip.add(
      'anchors.json',
      single(async () => jcs(await bundleAnchors(app, params.projectId, segment.segment))),
      level,
    );
    zip.add(
      'clause_map.json',
      single(async () =>
        // schema_version 2: outcome- and cadence-aware statuses with reasons (docs/clause-mapping.md).
        JSON.stringify({
          schema_version: 2,
          ...(await clauseMap.result()),
          date_range: { from, to },
          record_counts: counts,
        }),
      ),
      jsonLevel,
    );
    zip.add(
      'VERIFY.md',
      single(() => verifyMarkdown({ bundleId, projectId: params.projectId, from, to, timestampKind: expectedKind })),
      jsonLevel,
    );
    zip.add(
      'manifest.json',
      single(() => {
        const manifest = signManifest(
          {
            schema_version: manifestVersion,
            bundle_id: bundleId,
            project_id: params.projectId,
            org_id: params.orgId,
            date_range: { from, to },
            record_counts: counts,
            total_records: segment.records,
            frameworks: [...params.frameworks],
            generated_at: generatedAt,
            entries: { ...zip.digests },
            key_ids: { hmac: hmacId, ed25519: key.kid },
          },
          params.hmacKey,
        );
        hmacManifest = manifest.hmac;
        const bytes = manifestBytes(manifest);
        manifestDigest = sha256(bytes);
        return bytes;
      }),
      jsonLevel,
    );
    zip.add(
      'rfc3161_timestamp.tsr',
      single(async () => {
        const stamp = await createTimestamp(app, digest());
        timestampKind = stamp.kind;
        return stamp.token;
      }),
      0,
    );
    zip.add(
      'attestation.json',
      single(async () =>
        jcs(
          await createAttestation({
            bundleId,
            projectId: params.projectId,
            generatedAt,
            manifestSha256: digest().toString('hex'),
            timestampKind,
            hmacKey: params.hmacKey,
            hmacKeyId: hmacId,
            key,
          }),
        ),
      ),
      jsonLevel,
    );
    await zip.finish(pathInside(params.outputDir, `.${bundleId}.zip.partial`), finalPath);
    params.onProgress?.(segment.records, total, 'bundle written');
    return {
      bundle_id: bundleId,
      zip_path: finalPath,
      hmac_manifest: hmacManifest,
      record_counts: counts,
      frameworks_covered: [...params.frameworks],
      generated_at: generatedAt,
      size_bytes: statSync(finalPath).size,
    };
  } catch (error) {
    rmSync(bundleDir, { recursive: true, force: true });
    if (error instanceof SFCECBuildError) throw error;
    throw new SFCECBuildError(error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
};
