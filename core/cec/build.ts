import { createHash } from 'node:crypto';
import { createWriteStream, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ulid } from 'ulid';
import { ZipFile } from 'yazl';
import type { App } from '../app.ts';
import { jcs } from '../audit/chain.ts';
import { countEvidence, iterateEvidence } from '../audit/store.ts';
import { type SchemaKey, schemaKeys } from '../audit/types.ts';
import { SFCECBuildError } from '../errors.ts';
import { createAttestation } from './attestation.ts';
import { bundleFileName, pathInside } from './bundle-path.ts';
import { chainProofChunks, type SegmentBounds } from './chain-proof.ts';
import { computeClauseMap, type FrameworkId } from './clauses/index.ts';
import { attestationKey } from './ed25519.ts';
import { manifestBytes, manifestVersion, sha256, signManifest } from './manifest.ts';
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
  /** Deflate level 0-9 for the NDJSON folders (default 6, as gzip). */
  readonly compressionLevel?: number;
  readonly onProgress?: (done: number, total: number, message: string) => void;
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

/** Folder entry of a schema key inside the ZIP. */
export const recordsEntry = (key: SchemaKey): string => `${key}/records.ndjson`;
export const fixedEntries = [
  'manifest.json',
  'clause_map.json',
  'chain_proof.json',
  'attestation.json',
  'rfc3161_timestamp.tsr',
  'VERIFY.md',
] as const;

type EntryDigest = { sha256: string; size: number };
const linesPerChunk = 256;
const progressEvery = 20_000;

/**
 * Writes a bundle: entries are produced lazily, in order, by generators that pull records from SQLite as the
 * deflater asks for them, so memory stays flat whatever the record count. The ZIP goes to a temp file in the
 * output dir and is renamed into place only when complete; any failure removes it.
 */
export const writeBundle = async (app: App, params: BuildParams): Promise<BuiltBundle> => {
  const bundleId = `cec-${ulid()}`;
  const generatedAt = app.now().toISOString();
  const [from, to] = params.range;
  mkdirSync(params.outputDir, { recursive: true });
  const finalPath = pathInside(params.outputDir, bundleFileName(params.projectId, params.range));
  const tempPath = pathInside(params.outputDir, `.${bundleId}.zip.partial`);
  const level = params.compressionLevel ?? 6;
  const zip = new ZipFile();
  const digests: Record<string, EntryDigest> = {};
  const counts = Object.fromEntries(schemaKeys.map((key) => [key, 0])) as Record<SchemaKey, number>;
  const total = Object.values(countEvidence(app, { projectId: params.projectId, from, to })).reduce((a, b) => a + b, 0);
  let bounds: SegmentBounds = null;
  let done = 0;
  const mtime = new Date(generatedAt);

  let abort: (error: Error) => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    abort = reject;
  });
  aborted.catch(() => undefined);

  const addEntry = (name: string, chunks: () => AsyncIterable<string | Buffer>, compress = true): void => {
    zip.addReadStreamLazy(name, { mtime, compressionLevel: compress ? level : 0 }, (callback) => {
      const hash = createHash('sha256');
      let size = 0;
      async function* hashed(): AsyncGenerator<Buffer> {
        for await (const chunk of chunks()) {
          const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
          hash.update(bytes);
          size += bytes.length;
          yield bytes;
        }
        digests[name] = { sha256: hash.digest('hex'), size };
      }
      const readable = Readable.from(hashed(), { objectMode: false });
      readable.once('error', abort);
      callback(null, readable);
    });
  };

  async function* recordLines(key: SchemaKey): AsyncGenerator<string> {
    let lines: string[] = [];
    for (const record of iterateEvidence(app, { projectId: params.projectId, from, to, schemaKey: key })) {
      lines.push(`${JSON.stringify(record)}\n`);
      counts[key] += 1;
      done += 1;
      bounds =
        bounds === null
          ? { firstSeq: record.seq, lastSeq: record.seq }
          : { firstSeq: Math.min(bounds.firstSeq, record.seq), lastSeq: Math.max(bounds.lastSeq, record.seq) };
      if (done % progressEvery === 0) params.onProgress?.(done, total, `${key}: ${counts[key]} records`);
      if (lines.length >= linesPerChunk) {
        yield lines.join('');
        lines = [];
      }
    }
    if (lines.length > 0) yield lines.join('');
  }

  async function* once(produce: () => string | Buffer | Promise<string | Buffer>): AsyncGenerator<string | Buffer> {
    yield await produce();
  }

  let manifestDigest: Buffer | null = null;
  let hmacManifest = '';
  let timestampKind: 'rfc3161' | 'stub' = 'stub';
  const key = await attestationKey(app);

  for (const schemaKey of schemaKeys) addEntry(recordsEntry(schemaKey), () => recordLines(schemaKey));
  addEntry('chain_proof.json', () => chainProofChunks(app, params.projectId, params.range, bounds, done));
  addEntry('clause_map.json', () =>
    once(() =>
      JSON.stringify({
        schema_version: 1,
        project_id: params.projectId,
        date_range: { from, to },
        record_counts: counts,
        frameworks: params.frameworks,
        entries: computeClauseMap(params.frameworks, counts),
      }),
    ),
  );
  addEntry('VERIFY.md', () =>
    once(() =>
      verifyMarkdown({
        bundleId,
        projectId: params.projectId,
        from,
        to,
        timestampKind: app.settings.get().tsaUrl === '' ? 'stub' : 'rfc3161',
      }),
    ),
  );
  addEntry('manifest.json', () =>
    once(() => {
      const manifest = signManifest(
        {
          schema_version: manifestVersion,
          bundle_id: bundleId,
          project_id: params.projectId,
          org_id: params.orgId,
          date_range: { from, to },
          record_counts: counts,
          total_records: done,
          frameworks: [...params.frameworks],
          generated_at: generatedAt,
          entries: { ...digests },
          key_ids: { hmac: hmacKeyId(params.hmacKey), ed25519: key.kid },
        },
        params.hmacKey,
      );
      hmacManifest = manifest.hmac;
      const bytes = manifestBytes(manifest);
      manifestDigest = sha256(bytes);
      return bytes;
    }),
  );
  addEntry(
    'rfc3161_timestamp.tsr',
    () =>
      once(async () => {
        const stamp = await createTimestamp(app, requireDigest(manifestDigest));
        timestampKind = stamp.kind;
        return stamp.token;
      }),
    false,
  );
  addEntry('attestation.json', () =>
    once(async () =>
      jcs(
        await createAttestation({
          bundleId,
          projectId: params.projectId,
          generatedAt,
          manifestSha256: requireDigest(manifestDigest).toString('hex'),
          timestampKind,
          hmacKey: params.hmacKey,
          hmacKeyId: hmacKeyId(params.hmacKey),
          key,
        }),
      ),
    ),
  );

  const file = createWriteStream(tempPath, { mode: 0o644 });
  try {
    zip.once('error', abort);
    zip.end();
    await Promise.race([pipeline(zip.outputStream, file), aborted]);
    renameSync(tempPath, finalPath);
  } catch (error) {
    file.destroy();
    await new Promise((resolve) => file.close(resolve));
    rmSync(tempPath, { force: true });
    const detail = error instanceof Error ? error.message : String(error);
    throw new SFCECBuildError(detail, { cause: error });
  }
  params.onProgress?.(done, total, 'bundle written');
  return {
    bundle_id: bundleId,
    zip_path: finalPath,
    hmac_manifest: hmacManifest,
    record_counts: counts,
    frameworks_covered: [...params.frameworks],
    generated_at: generatedAt,
    size_bytes: statSync(finalPath).size,
  };
};

const requireDigest = (digest: Buffer | null): Buffer => {
  if (digest === null) throw new SFCECBuildError('manifest was not written before the entries that sign it');
  return digest;
};
