import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';

/** Where bundles go when the BYOS provider is s3 (the byosS3* settings). Credentials are not here. */
export type S3Config = {
  readonly bucket: string;
  /** Custom endpoint (MinIO, Ceph, R2...); null for AWS S3 of the region. Addressed path-style when set. */
  readonly endpoint: string | null;
  readonly region: string;
  /** Empty, or ends with `/`. */
  readonly prefix: string;
};

/** A stored object, as the registry records it. */
export type ObjectRef = { readonly bucket: string; readonly key: string };

/** True when bundles go to object storage (SVC_AUDIT_BYOS_PROVIDER=s3). Cheap: no SDK is loaded. */
export const usesObjectStorage = (app: App): boolean => app.settings.get().byosProvider === 's3';

/** S3 bucket names (the rules every S3-compatible service accepts): 3-63 of a-z 0-9 . -, letter or digit at both ends. */
const bucketName = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The S3 settings, checked; null when the provider is not s3. @throws AppError VALIDATION naming the setting. */
export const s3Config = (app: App): S3Config | null => {
  const settings = app.settings.get();
  if (settings.byosProvider !== 's3') return null;
  return s3Target(app, settings.byosS3Bucket);
};

/** Endpoint, region and prefix from the settings for `bucket` (also for `svc verify s3://...` without the provider set). */
export const s3Target = (app: App, bucket: string): S3Config => {
  const settings = app.settings.get();
  if (bucket === '') throw new AppError('VALIDATION', 'SVC_BYOS_S3_BUCKET is not set (required when SVC_AUDIT_BYOS_PROVIDER=s3)');
  if (!bucketName.test(bucket)) throw new AppError('VALIDATION', `SVC_BYOS_S3_BUCKET "${bucket.slice(0, 70)}" is not a valid bucket name`);
  const prefix = settings.byosS3Prefix;
  return {
    bucket,
    endpoint: settings.byosS3Endpoint === '' ? null : settings.byosS3Endpoint,
    region: settings.byosS3Region || app.env.AWS_REGION || app.env.AWS_DEFAULT_REGION || 'us-east-1',
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  };
};

/** Object key of a bundle: one folder per bundle id, like the local layout, so equal file names never collide. */
export const bundleObjectKey = (config: S3Config, bundleId: string, fileName: string): string => `${config.prefix}${bundleId}/${fileName}`;

/** `s3://bucket/key` to its parts. @throws AppError VALIDATION when it is not one. */
export const parseS3Url = (url: string): ObjectRef => {
  const match = /^s3:\/\/([^/]+)\/(.+)$/i.exec(url);
  if (match?.[1] === undefined || match[2] === undefined || !bucketName.test(match[1])) {
    throw new AppError('VALIDATION', 'expected s3://bucket/key');
  }
  return { bucket: match[1], key: match[2] };
};

export const s3Url = (ref: ObjectRef): string => `s3://${ref.bucket}/${ref.key}`;
