import { existsSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { App } from '../app.ts';
import { AppError, SFCECBuildError, wrapOptions } from '../errors.ts';
import { type Actor, defineOp } from '../ops/define.ts';
import { restrictedPath, restrictedOutputDir } from './bundle-path.ts';
import { withTempBundleFile } from './capped-file.ts';
import { SFCECClient, type VerifyBundleOptions } from './client.ts';
import { defaultDateRange } from './dates.ts';
import { exportPublicKey } from './ed25519.ts';
import { importTrustedKey, listTrustedKeys, removeTrustedKey } from './trusted-keys.ts';
import { type BundleEntry, listEntries } from './registry.ts';
import { checkRemoteUrl, withDownloadedBundle } from './remote-bundle.ts';
import { s3Url } from './storage/s3-config.ts';
import { withDownloadUrl } from './storage/stored-bundles.ts';
import type { BundleResult } from './types.ts';
import { pathField } from '../ops/path-field.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
const bundleId = z.string().min(1).max(100);
/** Inline (IPC) verification holds the bundle in memory: 256 MiB of ZIP at most; larger ones go by path. */
const maxInlineBase64 = Math.ceil((256 * 1024 * 1024) / 3) * 4;

/** The client of an app (one per app, so config stays per app). */
const clientOf = (app: App): SFCECClient => new SFCECClient({ app });

/** The spec's POST /v1/risk/cec reply: BundleResult without record_counts. */
export const bundleReply = (result: BundleResult) => ({
  bundle_id: result.bundle_id,
  zip_path: result.zip_path,
  download_url: result.download_url,
  expires_at: result.expires_at,
  hmac_manifest: result.hmac_manifest,
  frameworks_covered: result.frameworks_covered,
  generated_at: result.generated_at,
});

/** Trust inputs a verify op may add to the app's own (an HMAC key, one extra trusted public key). */
const verifyTrust = (input: { key?: string | undefined; public_key?: string | undefined }): VerifyBundleOptions => ({
  ...(input.key === undefined ? {} : { key: input.key }),
  ...(input.public_key === undefined ? {} : { publicKeys: [input.public_key] }),
});

/** The desktop user (IPC) may pick any folder; remote callers stay inside the configured bundle dir. */
const isLocal = (actor: Actor): boolean => actor.kind === 'local';

/**
 * A row of the Bundles screen. A bundle in a bucket gets its presigned URL and `stored_at` (its s3:// URL); its
 * `zip_exists` is true without asking the bucket per row (reissue asks, and says when the object is gone).
 */
const listItem = async (app: App, entry: BundleEntry, now: Date) => {
  const { object, ...rest } = await withDownloadUrl(app, entry);
  return {
    ...rest,
    stored_at: object === null ? null : s3Url(object),
    expired: Date.parse(entry.expires_at) <= now.getTime(),
    zip_exists: object !== null || existsSync(entry.zip_path),
  };
};

/** Operations of the CEC domain (bundles); the DPA ops live in ./dpa. */
export const cecOps = {
  'cec.buildBundle': defineOp({
    summary: 'Build a signed evidence bundle (ZIP) for a project and date range (POST /v1/risk/cec)',
    input: z.object({
      project_id: z.string().trim().min(1).max(128),
      org_id: z.string().max(200).optional(),
      org_secret: z.string().min(1).max(1024).optional(),
      output_dir: pathField(1024).optional(),
      frameworks: z.array(z.string().max(100)).max(20).optional(),
      date_range: z.tuple([isoDate, isoDate]).optional(),
    }),
    access: 'write',
    tier: 'api',
    http: { method: 'POST', path: '/v1/risk/cec', status: 201, errorField: 'detail', validationStatus: 422 },
    handler: async (input, ctx) => {
      const outputDir =
        isLocal(ctx.actor) && input.output_dir !== undefined && input.output_dir !== ''
          ? input.output_dir
          : restrictedOutputDir(ctx.app, input.output_dir);
      const client = clientOf(ctx.app);
      const range = input.date_range ?? defaultDateRange(ctx.app.now());
      const options = {
        outputDir,
        onProgress: (done: number, total: number, message: string) => ctx.progress(done, total, message),
        ...(input.org_id === undefined ? {} : { orgId: input.org_id }),
        ...(input.org_secret === undefined ? {} : { signingKey: input.org_secret }),
      };
      try {
        const build = ctx.app.dataDir === null ? client.buildBundle.bind(client) : client.buildBundleAsync.bind(client);
        return bundleReply(await build(input.project_id, range, input.frameworks, options));
      } catch (error) {
        if (error instanceof SFCECBuildError) throw new SFCECBuildError(`CEC build failed: ${error.message}`, wrapOptions(error));
        throw error;
      }
    },
  }),
  'cec.getBundle': defineOp({
    summary: 'A registered bundle (GET /v1/risk/cec/{bundle_id}); 404 Bundle not found',
    input: z.object({ bundle_id: bundleId }),
    access: 'read',
    tier: 'api',
    http: { method: 'GET', path: '/v1/risk/cec/:bundle_id', errorField: 'detail', validationStatus: 422 },
    handler: async (input, ctx) => {
      const result = await clientOf(ctx.app).getBundle(input.bundle_id);
      if (result === null) throw new AppError('NOT_FOUND', 'Bundle not found');
      return bundleReply(result);
    },
  }),
  'cec.listBundles': defineOp({
    summary: 'Registered bundles, newest first, with expiry and whether the ZIP is still on disk',
    input: z.object({
      project_id: z.string().max(128).optional(),
      limit: z.coerce.number().int().min(1).max(200).default(50),
      offset: z.coerce.number().int().min(0).default(0),
    }),
    access: 'read',
    tier: 'api',
    http: { method: 'GET', path: '/v1/risk/cec', errorField: 'detail', validationStatus: 422 },
    handler: async (input, ctx) => {
      const page = await listEntries(ctx.app, {
        limit: input.limit,
        offset: input.offset,
        ...(input.project_id === undefined ? {} : { projectId: input.project_id }),
      });
      const now = ctx.app.now();
      return { total: page.total, items: await Promise.all(page.items.map((entry) => listItem(ctx.app, entry, now))) };
    },
  }),
  'cec.verifyBundle': defineOp({
    summary: 'Verify a bundle ZIP by path (remote callers: inside the bundle dir only); uploads use POST /v1/risk/cec/verify',
    input: z.object({
      zip_path: pathField(4096).min(1),
      key: z.string().min(1).max(1024).optional(),
      public_key: z.string().min(1).max(20_000).optional(),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      const path = isLocal(ctx.actor) ? input.zip_path : restrictedPath(ctx.app, input.zip_path);
      return clientOf(ctx.app).verifyBundle(path, verifyTrust(input));
    },
  }),
  'cec.verifyUrl': defineOp({
    summary: 'Download a bundle from s3://bucket/key or a presigned http(s) URL (size-capped, private temp file) and verify it',
    input: z.object({
      url: z
        .string()
        .max(8192)
        .regex(/^(s3|https?):\/\/\S+$/i, 'expected s3://bucket/key or an http(s) URL'),
      key: z.string().min(1).max(1024).optional(),
      public_key: z.string().min(1).max(20_000).optional(),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      if (!isLocal(ctx.actor)) checkRemoteUrl(ctx.app, input.url);
      return withDownloadedBundle(ctx.app, input.url, (file) => clientOf(ctx.app).verifyBundle(file, verifyTrust(input)));
    },
  }),
  'cec.verifyUpload': defineOp({
    summary: 'Verify bundle bytes sent inline (desktop IPC; browsers stream to POST /v1/risk/cec/verify instead)',
    input: z.object({
      content_base64: z.string().min(1).max(maxInlineBase64),
      key: z.string().min(1).max(1024).optional(),
      public_key: z.string().min(1).max(20_000).optional(),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      return withTempBundleFile(async (file) => {
        writeFileSync(file, Buffer.from(input.content_base64, 'base64'), { mode: 0o600 });
        return clientOf(ctx.app).verifyBundle(file, verifyTrust(input));
      });
    },
  }),
  'cec.reissueDownloadUrl': defineOp({
    summary: 'Move a bundle download expiry to now + 24 h without rebuilding (POST /v1/risk/cec/{bundle_id}/reissue)',
    input: z.object({ bundle_id: bundleId }),
    access: 'write',
    tier: 'api',
    http: { method: 'POST', path: '/v1/risk/cec/:bundle_id/reissue', errorField: 'detail', validationStatus: 422 },
    handler: async (input, ctx) => clientOf(ctx.app).reissueDownloadUrl(input.bundle_id),
  }),
  'cec.status': defineOp({
    summary: 'CEC status: BYOS provider, bundle count, last bundle time, supported frameworks',
    input: z.object({}).optional(),
    access: 'read',
    tier: 'api',
    handler: async (_input, ctx) => clientOf(ctx.app).getStatus(),
  }),
  'cec.publicKey': defineOp({
    summary: "This install's Ed25519 attestation public key (JWK, PEM, RFC 7638 thumbprint) to publish for auditors",
    input: z.object({}).optional(),
    access: 'read',
    tier: 'free',
    http: { method: 'GET', path: '/v1/risk/cec/public-key', errorField: 'detail' },
    handler: async (_input, ctx) => {
      const key = await exportPublicKey(ctx.app);
      return { ...key, thumbprint: key.kid, thumbprint_method: 'RFC 7638 JWK thumbprint, SHA-256, base64url' };
    },
  }),
  'cec.listTrustedKeys': defineOp({
    summary: "Ed25519 public keys imported as trusted for bundle verification (besides this install's own)",
    input: z.object({}).optional(),
    access: 'read',
    tier: 'api',
    handler: async (_input, ctx) => ({ items: await listTrustedKeys(ctx.app) }),
  }),
  'cec.importTrustedKey': defineOp({
    summary: 'Trust an Ed25519 public key (SPKI PEM or JWK) for bundle verification; returns its thumbprint',
    input: z.object({ public_key: z.string().min(1).max(20_000), label: z.string().trim().min(1).max(200) }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => importTrustedKey(ctx.app, input.public_key, input.label),
  }),
  'cec.removeTrustedKey': defineOp({
    summary: 'Stop trusting an imported public key (by thumbprint)',
    input: z.object({ kid: z.string().min(1).max(100) }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      if (!(await removeTrustedKey(ctx.app, input.kid))) throw new AppError('NOT_FOUND', 'No imported trusted key with that thumbprint');
      return { removed: input.kid };
    },
  }),
} as const;
