import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { s3Client, storageError } from './s3-client.ts';
import { bundleObjectKey, type ObjectRef, type S3Config } from './s3-config.ts';

/** S3's smallest part: the upload holds at most `queueSize` parts of this in memory, whatever the bundle size. */
export const uploadPartBytes = 5 * 1024 * 1024;
const uploadQueueSize = 2;
/** SigV4 presigned URLs live at most 7 days. */
const maxPresignSeconds = 7 * 24 * 60 * 60;

export type StoredObject = ObjectRef & { readonly sha256: string; readonly size: number };

const fileSha256 = async (path: string): Promise<string> => {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
};

/**
 * Streams a built bundle to the bucket (multipart above one part), hashing the bytes as they leave. The SHA-256
 * of the file as built is taken first and must equal the hash of what was sent; the stored object's size and
 * recorded digest are read back before the upload counts. A failed upload aborts its parts (no orphans billed).
 */
export const uploadBundle = async (
  app: App,
  config: S3Config,
  built: { readonly bundle_id: string; readonly zip_path: string; readonly size_bytes: number },
): Promise<StoredObject> => {
  const { client, sdk } = await s3Client(app, config);
  const { Upload } = await import('@aws-sdk/lib-storage');
  const key = bundleObjectKey(config, built.bundle_id, basename(built.zip_path));
  const builtSha256 = await fileSha256(built.zip_path);
  const sent = createHash('sha256');
  let sentBytes = 0;
  const body = createReadStream(built.zip_path).pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        sent.update(chunk);
        sentBytes += chunk.length;
        done(null, chunk);
      },
    }),
  );
  const upload = new Upload({
    client,
    params: {
      Bucket: config.bucket,
      Key: key,
      Body: body,
      ContentType: 'application/zip',
      Metadata: { 'bundle-id': built.bundle_id, sha256: builtSha256 },
    },
    partSize: uploadPartBytes,
    queueSize: uploadQueueSize,
    leavePartsOnError: false,
  });
  try {
    await upload.done();
  } catch (error) {
    throw storageError(error, config, 'PutObject');
  }
  const sha256 = sent.digest('hex');
  if (sha256 !== builtSha256 || sentBytes !== built.size_bytes) {
    throw new AppError('INTERNAL', `Bundle ${built.bundle_id} changed on disk while it was uploaded; nothing was registered`);
  }
  let head: { ContentLength?: number | undefined; Metadata?: Record<string, string> | undefined };
  try {
    head = await client.send(new sdk.HeadObjectCommand({ Bucket: config.bucket, Key: key }));
  } catch (error) {
    throw storageError(error, config, 'HeadObject');
  }
  if (head.ContentLength !== sentBytes || (head.Metadata?.sha256 !== undefined && head.Metadata.sha256 !== sha256)) {
    throw new AppError('UNAVAILABLE', `Object storage: the stored copy of ${built.bundle_id} does not match what was sent`);
  }
  return { bucket: config.bucket, key, sha256, size: sentBytes };
};

/**
 * A presigned GET URL that stops working at `expiresAt`: signed at the app's clock for the time left (an expiry
 * already past gives a URL that is already expired, never a fresh one). The browser saves it under its file name.
 */
export const presignDownload = async (app: App, config: S3Config, ref: ObjectRef, expiresAt: string): Promise<string> => {
  const { client, sdk } = await s3Client(app, config);
  const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner');
  const end = Date.parse(expiresAt);
  const issued = Math.min(app.now().getTime(), end - 1000);
  const expiresIn = Math.min(maxPresignSeconds, Math.max(1, Math.round((end - issued) / 1000)));
  const command = new sdk.GetObjectCommand({
    Bucket: ref.bucket,
    Key: ref.key,
    ResponseContentDisposition: `attachment; filename="${basename(ref.key)}"`,
  });
  try {
    return await getSignedUrl(client, command, { expiresIn, signingDate: new Date(issued) });
  } catch (error) {
    throw storageError(error, config, 'presigning GetObject');
  }
};

/** Whether the object is still in the bucket. @throws AppError UNAVAILABLE when the bucket cannot be asked. */
export const objectExists = async (app: App, config: S3Config, ref: ObjectRef): Promise<boolean> => {
  const { client, sdk } = await s3Client(app, config);
  try {
    await client.send(new sdk.HeadObjectCommand({ Bucket: ref.bucket, Key: ref.key }));
    return true;
  } catch (error) {
    const mapped = storageError(error, config, 'HeadObject');
    if (mapped.code === 'NOT_FOUND') return false;
    throw mapped;
  }
};

/**
 * The start-up probe of `svc serve`: writes and reads back one small object under the prefix, so a wrong
 * endpoint, a missing bucket, refused credentials or a policy without write access stop the server at start,
 * not at the first build. One fixed key, overwritten each start: no delete permission needed (Object Lock).
 */
export const probeBucket = async (app: App, config: S3Config): Promise<void> => {
  const { client, sdk } = await s3Client(app, config);
  const key = `${config.prefix}.svc-write-probe`;
  try {
    await client.send(
      new sdk.PutObjectCommand({ Bucket: config.bucket, Key: key, Body: `svc start-up probe ${app.now().toISOString()}\n` }),
    );
  } catch (error) {
    throw storageError(error, config, 'PutObject of the start-up probe');
  }
  try {
    await client.send(new sdk.HeadObjectCommand({ Bucket: config.bucket, Key: key }));
  } catch (error) {
    throw storageError(error, config, 'HeadObject of the start-up probe');
  }
};
