import type { S3Client } from '@aws-sdk/client-s3';
import { type App, service } from '../../app.ts';
import { AppError } from '../../errors.ts';
import type { S3Config } from './s3-config.ts';

/** The SDK module, loaded on first use only: the CLI and a local-storage app never pay for it. */
export type S3Sdk = typeof import('@aws-sdk/client-s3');
export type S3Handle = { readonly client: S3Client; readonly sdk: S3Sdk };

/**
 * Credentials: the standard AWS chain. The app's own environment comes first (the first link of that chain, so
 * an app created with an explicit env, as tests and embedders do, uses it); otherwise the SDK's default chain
 * (process environment, shared config and SSO profiles, container and instance roles). Never logged.
 */
const envCredentials = (env: NodeJS.ProcessEnv) => {
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) return undefined;
  return { accessKeyId, secretAccessKey, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) };
};

const loadSdk = async (): Promise<S3Sdk> => {
  // The SDK warns at load on Node 20 about its future releases; our lock file pins a release that supports it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return import('@aws-sdk/client-s3');
};

const createClients = () => {
  const clients = new Map<string, Promise<S3Handle>>();
  return {
    get: (app: App, config: S3Config): Promise<S3Handle> => {
      const id = `${config.endpoint ?? ''}|${config.region}`;
      let handle = clients.get(id);
      if (handle === undefined) {
        handle = loadSdk().then((sdk) => {
          const credentials = envCredentials(app.env);
          const client = new sdk.S3Client({
            region: config.region,
            ...(config.endpoint === null ? {} : { endpoint: config.endpoint, forcePathStyle: true }),
            ...(credentials === undefined ? {} : { credentials }),
            // Checksums only where S3 requires them: many S3-compatible services refuse the aws-chunked
            // trailers the SDK sends by default; SigV4 still signs each part's SHA-256 (real S3 checks it).
            requestChecksumCalculation: 'WHEN_REQUIRED',
            responseChecksumValidation: 'WHEN_REQUIRED',
            requestHandler: { connectionTimeout: 5000 },
          });
          return { client, sdk };
        });
        handle.catch(() => clients.delete(id));
        clients.set(id, handle);
      }
      return handle;
    },
    close: (): void => {
      for (const handle of clients.values())
        void handle.then(
          ({ client }) => client.destroy(),
          () => undefined,
        );
      clients.clear();
    },
  };
};

/** The app's S3 client for a target (one per endpoint and region, destroyed by `app.close()`). */
export const s3Client = (app: App, config: S3Config): Promise<S3Handle> => service(app, 'cec.s3Clients', createClients).get(app, config);

type SdkError = {
  name?: string;
  code?: string;
  errors?: { code?: string }[];
  $metadata?: { httpStatusCode?: number };
};

const networkCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
const credentialNames = new Set(['InvalidAccessKeyId', 'SignatureDoesNotMatch', 'InvalidToken', 'ExpiredToken', 'TokenRefreshRequired']);

const where = (config: S3Config): string =>
  config.endpoint === null
    ? `S3 in region ${config.region} (SVC_BYOS_S3_REGION)`
    : `SVC_BYOS_S3_ENDPOINT ${new URL(config.endpoint).origin}`;

/**
 * One line saying what went wrong with the object store and which setting to look at. Only error names and
 * statuses are used, never the SDK's message or a request: those can carry key ids or signatures.
 */
export const storageError = (error: unknown, config: S3Config, action: string): AppError => {
  const e = (error ?? {}) as SdkError;
  const name = e.name ?? 'Error';
  const status = e.$metadata?.httpStatusCode;
  const netCode = e.code ?? e.errors?.find((inner) => inner.code !== undefined)?.code;
  const bucket = `SVC_BYOS_S3_BUCKET "${config.bucket}"`;
  const unavailable = (message: string) => new AppError('UNAVAILABLE', `Object storage: ${message}`, { cause: error });
  if (netCode !== undefined && networkCodes.has(netCode)) return unavailable(`${where(config)} is unreachable (${netCode}) on ${action}`);
  if (name === 'TimeoutError') return unavailable(`${where(config)} did not answer in time on ${action}`);
  if (name === 'CredentialsProviderError') {
    return unavailable('no AWS credentials found (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an instance role)');
  }
  if (credentialNames.has(name)) return unavailable(`the AWS credentials were refused by ${where(config)} (${name}) on ${action}`);
  if (name === 'NoSuchBucket') return unavailable(`${bucket} does not exist at ${where(config)}`);
  if (name === 'NoSuchKey' || name === 'NotFound' || status === 404) {
    return new AppError('NOT_FOUND', `Object storage: the object is gone from ${bucket} (${action})`, { cause: error });
  }
  if (name === 'AccessDenied' || status === 403) {
    return unavailable(
      `${action} was denied in ${bucket} under SVC_BYOS_S3_PREFIX "${config.prefix}" (${name}): check the bucket policy and the credentials`,
    );
  }
  return unavailable(`${action} failed at ${where(config)} (${name}${status === undefined ? '' : `, HTTP ${status}`})`);
};
