import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { App } from '../app.ts';
import { AppError, SFCECVerifyError, wrapOptions } from '../errors.ts';
import { maxUploadBytes, saveCapped, withTempBundleFile } from './capped-file.ts';
import { parseS3Url, s3Target } from './storage/s3-config.ts';

/** `s3://bucket/key`, or an http(s) URL such as a presigned GET: what `svc verify` and the Verify screen take besides a path. */
export const isBundleUrl = (value: string): boolean => /^(s3|https?):\/\//i.test(value);

/** A URL fit for a message: origin and path only. A presigned URL's query is a credential and is never shown. */
export const safeUrl = (url: string): string => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 's3:' ? (url.split('?')[0] ?? '') : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(unparseable URL)';
  }
};

/** S3's XML error body gives a code and a sentence; nothing else of it is repeated (it can echo signed strings). */
const s3ErrorSummary = (body: string): string => {
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]{1,200})<\/Message>/.exec(body)?.[1];
  return code === undefined ? '' : `: ${code}${message === undefined ? '' : ` (${message})`}`;
};

const fetchHttp = async (url: string, file: string, limit: number): Promise<void> => {
  let response: Response;
  try {
    // No redirects: a presigned URL answers itself, and a redirect could lead the fetch somewhere else.
    response = await fetch(url, { redirect: 'error' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new SFCECVerifyError(`Cannot download ${safeUrl(url)}: ${cause ?? 'network error or redirect'}`, { code: 'UNAVAILABLE' });
  }
  if (!response.ok || response.body === null) {
    const detail = s3ErrorSummary((await response.text().catch(() => '')).slice(0, 4096));
    const code = response.status === 404 ? 'NOT_FOUND' : 'VALIDATION';
    throw new SFCECVerifyError(`Download of ${safeUrl(url)} failed with HTTP ${response.status}${detail}`, { code });
  }
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit) throw new AppError('PAYLOAD_TOO_LARGE', `Bundle larger than ${limit} bytes`);
  await saveCapped(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), file, limit);
};

const fetchS3 = async (app: App, url: string, file: string, limit: number): Promise<void> => {
  const ref = parseS3Url(url);
  const config = s3Target(app, ref.bucket);
  const { s3Client, storageError } = await import('./storage/s3-client.ts');
  const { client, sdk } = await s3Client(app, config);
  try {
    const object = await client.send(new sdk.GetObjectCommand({ Bucket: ref.bucket, Key: ref.key }));
    if ((object.ContentLength ?? 0) > limit) throw new AppError('PAYLOAD_TOO_LARGE', `Bundle larger than ${limit} bytes`);
    await saveCapped(object.Body as AsyncIterable<Uint8Array>, file, limit);
  } catch (error) {
    if (error instanceof AppError) throw error;
    const mapped = storageError(error, config, `GetObject ${safeUrl(url)}`);
    throw new SFCECVerifyError(mapped.message, wrapOptions(mapped));
  }
};

/**
 * Downloads a bundle named by URL into a private temp file (at most SVC_CEC_MAX_UPLOAD_BYTES), runs `use` on
 * it (the normal strict verifier), and removes it. `s3://` uses the AWS credential chain and the S3 settings.
 * @throws SFCECVerifyError when the download fails (NOT_FOUND for a missing object, UNAVAILABLE when unreachable).
 */
export const withDownloadedBundle = <T>(app: App, url: string, use: (file: string) => Promise<T>): Promise<T> =>
  withTempBundleFile(async (file) => {
    const limit = maxUploadBytes(app.env);
    if (/^s3:/i.test(url)) await fetchS3(app, url, file, limit);
    else await fetchHttp(url, file, limit);
    return use(file);
  });

/** A path, or a URL downloaded first: `use` always gets a local file. */
export const withBundleFile = <T>(app: App, target: string, use: (file: string) => Promise<T>): Promise<T> =>
  isBundleUrl(target) ? withDownloadedBundle(app, target, use) : use(target);

/**
 * A server must not fetch any URL a remote caller names (SSRF: cloud metadata, internal services). Remote
 * callers may name objects of the configured bucket only: `s3://<bucket>/...`, or a presigned URL on the
 * configured endpoint (or, without one, on the bucket's AWS S3 host). The desktop user and the CLI may name any.
 * @throws AppError FORBIDDEN otherwise.
 */
export const checkRemoteUrl = (app: App, url: string): void => {
  const settings = app.settings.get();
  const refuse = (): never => {
    throw new AppError('FORBIDDEN', 'Remote callers may only verify bundles from the configured bucket (SVC_BYOS_S3_BUCKET)');
  };
  if (settings.byosProvider !== 's3' || settings.byosS3Bucket === '') refuse();
  const config = s3Target(app, settings.byosS3Bucket);
  if (/^s3:/i.test(url)) {
    if (parseS3Url(url).bucket !== config.bucket) refuse();
    return;
  }
  const host = new URL(url).host.toLowerCase();
  const allowed =
    config.endpoint === null
      ? [`${config.bucket}.s3.${config.region}.amazonaws.com`, `s3.${config.region}.amazonaws.com`, `${config.bucket}.s3.amazonaws.com`]
      : [new URL(config.endpoint).host.toLowerCase()];
  if (!allowed.includes(host)) refuse();
};
