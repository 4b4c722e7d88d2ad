import { existsSync, rmSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { App } from '../../app.ts';
import type { BuiltBundle } from '../build.ts';
import type { BundleEntry } from '../registry.ts';
import type { StoredObject } from './s3-bundles.ts';
import { s3Config, s3Target } from './s3-config.ts';

/**
 * The BYOS seam between the bundle builder and the registry. Local storage: the ZIP stays where it was built.
 * s3: the ZIP is streamed to the bucket and, once the stored copy is verified and registered, its local file is
 * removed (docs/decisions.md, "BYOS object storage"). The SDK is imported only on the s3 paths.
 */
const s3 = () => import('./s3-bundles.ts');

/** The folder the builder made for this bundle alone (`<output dir>/<bundle_id>/`), or null if it is not that. */
const ownFolder = (built: Pick<BuiltBundle, 'bundle_id' | 'zip_path'>): string | null => {
  const folder = dirname(built.zip_path);
  return basename(folder) === built.bundle_id ? folder : null;
};

const removeLocal = (built: Pick<BuiltBundle, 'bundle_id' | 'zip_path'>): void => {
  const folder = ownFolder(built);
  rmSync(folder ?? built.zip_path, { recursive: folder !== null, force: true });
};

/**
 * Uploads a freshly built bundle when the provider is s3 (null: local storage, nothing to do). On failure the
 * local ZIP is removed (it was never registered; the evidence it was built from is untouched) and the error
 * says which setting to check.
 */
export const storeBuiltBundle = async (app: App, built: BuiltBundle): Promise<StoredObject | null> => {
  const config = s3Config(app);
  if (config === null) return null;
  try {
    return await (await s3()).uploadBundle(app, config, built);
  } catch (error) {
    removeLocal(built);
    throw error;
  }
};

/** After a stored bundle is registered: the bucket holds it, so the server's disk does not keep a second copy. */
export const releaseLocalCopy = (built: BuiltBundle, stored: StoredObject | null): void => {
  if (stored !== null) removeLocal(built);
};

/** The entry with a usable download_url: a presigned GET for a stored bundle, expiring at its expires_at. */
export const withDownloadUrl = async (app: App, entry: BundleEntry): Promise<BundleEntry> => {
  if (entry.object === null) return entry;
  const url = await (await s3()).presignDownload(app, s3Target(app, entry.object.bucket), entry.object, entry.expires_at);
  return { ...entry, download_url: url };
};

/** Whether the bundle can still be downloaded: the local ZIP exists, or the object is still in its bucket. */
export const bundleAvailable = async (app: App, entry: BundleEntry): Promise<boolean> =>
  entry.object === null ? existsSync(entry.zip_path) : (await s3()).objectExists(app, s3Target(app, entry.object.bucket), entry.object);

/** `svc serve`'s start-up check: with the s3 provider, the bucket must take a write and give it back. */
export const checkBundleStorage = async (app: App): Promise<void> => {
  const config = s3Config(app);
  if (config !== null) await (await s3()).probeBucket(app, config);
};
