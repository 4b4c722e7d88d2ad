import type { App } from '../app.ts';
import { openDefaultApp } from '../default-app.ts';
import { AppError, SFCECBuildError, wrapOptions } from '../errors.ts';
import { writeBundleInWorker } from './async-build.ts';
import { type BuildParams, type BuiltBundle, writeBundle } from './build.ts';
import { defaultBundleDir } from './bundle-path.ts';
import { type GenerateDpaOptions, generateDpa } from './dpa/generate.ts';
import type { DPADocument } from './dpa/types.ts';
import { type FrameworkId, frameworkIds, resolveFramework } from './clauses/index.ts';
import { checkDateRange } from './dates.ts';
import { type BundleEntry, downloadValidityMs, getEntry, registerBundle, registryStats, setExpiry, toBundleResult } from './registry.ts';
import { resolveSigningKey } from './signing-key.ts';
import { publishInstanceKey } from './trusted-keys.ts';
import { usesObjectStorage } from './storage/s3-config.ts';
import { bundleAvailable, releaseLocalCopy, storeBuiltBundle, withDownloadUrl } from './storage/stored-bundles.ts';
import type { BundleResult, BundleVerificationResult, CECStatusInfo } from './types.ts';
import { type VerifyBundleOptions, verifyBundleWithTrust } from './verify-bundle.ts';

export type CECClientConfig = {
  readonly app?: App;
  /** HMAC key; default `SVC_SIGNING_KEY` / the stored signingKey secret. */
  readonly signingKey?: string;
  /** Where ZIPs go; default the configured bundle directory. */
  readonly outputDir?: string;
};

/** Options of one build beyond the spec's positional arguments (REST passes org_id, org_secret, output_dir). */
export type BuildOptions = {
  readonly orgId?: string;
  readonly signingKey?: string;
  readonly outputDir?: string;
  readonly onProgress?: (done: number, total: number, message: string) => void;
};

export type { VerifyBundleOptions } from './verify-bundle.ts';

/**
 * The CEC client of spec 4.3: builds signed evidence bundles, verifies them offline, keeps a persistent
 * registry. Methods are camelCase versions of the spec's operations.
 * @example
 * const bundle = await sfCec.buildBundle('credit-model', ['2026-01-01', '2026-01-31'], ['eu_ai_act']);
 * const check = await sfCec.verifyBundle(bundle.zip_path);
 */
export class SFCECClient {
  readonly #config: CECClientConfig;
  #app: App | undefined;

  constructor(config: CECClientConfig = {}) {
    this.#config = config;
    this.#app = config.app;
  }

  /** The configured app, else the SDK's default app (on PostgreSQL when SVC_DATABASE_URL is set: openApp). */
  async #open(): Promise<App> {
    this.#app ??= await openDefaultApp();
    return this.#app;
  }

  /** Builds a bundle for a project and an inclusive date range. @throws SFCECBuildError on ZIP write or HMAC failure. */
  buildBundle(
    projectId: string,
    dateRange: readonly [string, string],
    frameworks?: readonly string[],
    options: BuildOptions = {},
  ): Promise<BundleResult> {
    return this.#build(projectId, dateRange, frameworks, options, writeBundle);
  }

  /** Same as buildBundle, in a worker thread: the caller's event loop is never blocked by the build. */
  buildBundleAsync(
    projectId: string,
    dateRange: readonly [string, string],
    frameworks?: readonly string[],
    options: BuildOptions = {},
  ): Promise<BundleResult> {
    return this.#build(projectId, dateRange, frameworks, options, writeBundleInWorker);
  }

  /** Verifies a bundle ZIP. @throws SFCECVerifyError if the file is missing or unreadable. */
  async verifyBundle(zipPath: string, options: VerifyBundleOptions = {}): Promise<BundleVerificationResult> {
    return verifyBundleWithTrust(await this.#open(), zipPath, options, this.#config.signingKey);
  }

  /** Spec CECStatusInfo. */
  async getStatus(): Promise<CECStatusInfo> {
    const app = await this.#open();
    const stats = await registryStats(app);
    return {
      byos_provider: usesObjectStorage(app) ? 's3' : null,
      bundle_count: stats.count,
      last_bundle_at: stats.last,
      frameworks_supported: [...frameworkIds],
    };
  }

  /** The registered bundle, or null when the id is unknown. */
  async getBundle(bundleId: string): Promise<BundleResult | null> {
    const app = await this.#open();
    const entry = await getEntry(app, bundleId);
    return entry === null ? null : this.#result(app, entry);
  }

  /**
   * Moves expires_at to now + 24 h (bundleUrlValidityHours) without rebuilding; a stored bundle gets a freshly
   * presigned URL. @throws SFCECBuildError if the id is unknown, the ZIP is gone from disk or the object from
   * its bucket (NOT_FOUND), or the bucket cannot be reached (UNAVAILABLE).
   */
  async reissueDownloadUrl(bundleId: string): Promise<BundleResult> {
    const app = await this.#open();
    const entry = await getEntry(app, bundleId);
    if (entry === null) throw new SFCECBuildError(`Bundle ${bundleId.slice(0, 80)} is not in the registry`, { code: 'NOT_FOUND' });
    let available: boolean;
    try {
      available = await bundleAvailable(app, entry);
    } catch (error) {
      throw new SFCECBuildError((error as Error).message, wrapOptions(error));
    }
    if (!available) {
      const where = entry.object === null ? 'the ZIP is gone from disk' : 'its object is gone from the bucket';
      throw new SFCECBuildError(`Bundle ${bundleId}: ${where}`, { code: 'NOT_FOUND' });
    }
    const expiresAt = new Date(app.now().getTime() + downloadValidityMs(app)).toISOString();
    const moved = await setExpiry(app, bundleId, expiresAt);
    // Removed from the registry between the two statements (another instance's rebuild superseded it).
    if (moved === null) throw new SFCECBuildError(`Bundle ${bundleId.slice(0, 80)} is not in the registry`, { code: 'NOT_FOUND' });
    return this.#result(app, moved);
  }

  /** Generates and stores a GDPR Art. 28 DPA (spec `generate_dpa`). @throws SFCECExportError on bad input or failure. */
  async generateDpa(
    projectId: string,
    controllerDetails: Record<string, unknown>,
    processorDetails: Record<string, unknown>,
    options: GenerateDpaOptions,
  ): Promise<DPADocument> {
    return generateDpa(await this.#open(), projectId, controllerDetails, processorDetails, options);
  }

  async #build(
    projectId: string,
    dateRange: readonly [string, string],
    frameworks: readonly string[] | undefined,
    options: BuildOptions,
    write: (app: App, params: BuildParams) => Promise<BuiltBundle>,
  ): Promise<BundleResult> {
    const app = await this.#open();
    if (projectId.trim() === '' || projectId.length > 200) throw new AppError('VALIDATION', 'project_id must be 1-200 characters');
    const range = checkDateRange(dateRange);
    const resolved: FrameworkId[] =
      frameworks === undefined || frameworks.length === 0 ? [...frameworkIds] : [...new Set(frameworks.map(resolveFramework))];
    const hmacKey = options.signingKey ?? this.#config.signingKey ?? resolveSigningKey(app);
    const params: BuildParams = {
      projectId,
      range,
      frameworks: resolved,
      orgId: options.orgId ?? null,
      hmacKey,
      outputDir: options.outputDir ?? this.#config.outputDir ?? defaultBundleDir(app),
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
    };
    let built: BuiltBundle;
    try {
      built = await write(app, params);
    } catch (error) {
      if (error instanceof SFCECBuildError) throw error;
      throw new SFCECBuildError((error as Error).message, wrapOptions(error));
    }
    app.log.info({ bundleId: built.bundle_id, records: Object.values(built.record_counts).reduce((a, b) => a + b, 0) }, 'bundle built');
    let stored: Awaited<ReturnType<typeof storeBuiltBundle>>;
    try {
      stored = await storeBuiltBundle(app, built);
    } catch (error) {
      throw new SFCECBuildError((error as Error).message, wrapOptions(error));
    }
    await publishInstanceKey(app);
    const entry = await registerBundle(app, built, { projectId, orgId: params.orgId, range }, stored);
    releaseLocalCopy(built, stored);
    if (stored !== null)
      app.log.info({ bundleId: built.bundle_id, sha256: stored.sha256, bytes: stored.size }, 'bundle stored in the bucket');
    return this.#result(app, entry);
  }

  /** The spec's BundleResult of an entry, with a presigned download_url when the bundle is in a bucket. */
  async #result(app: App, entry: BundleEntry): Promise<BundleResult> {
    try {
      return toBundleResult(await withDownloadUrl(app, entry));
    } catch (error) {
      throw new SFCECBuildError((error as Error).message, wrapOptions(error));
    }
  }
}

/** The default client on the default app (`svc/sdk`). */
export const sfCec = new SFCECClient();
