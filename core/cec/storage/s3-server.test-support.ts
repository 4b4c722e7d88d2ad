import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A local S3-compatible server for the tests: @20minutes/s3rver (npm), which checks SigV4 signatures of signed
 * headers and presigned query strings, and refuses presigned URLs after X-Amz-Expires. Two things real S3 does
 * that it does not are added by one gate in front of it, and only these: (1) unsigned requests are refused
 * (real buckets are private; s3rver has no ACLs and would serve them), (2) a read-only key is refused writes
 * (s3rver has no IAM; this stands in for a bucket policy granting s3:GetObject only). The gate also records
 * each request's method and path so tests can see multipart parts arrive.
 */
type KoaContext = {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
};
type KoaNext = () => Promise<void>;
type S3rverInstance = {
  middleware: ((ctx: KoaContext, next: KoaNext) => Promise<void>)[];
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
};
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;
type AccountClass = new (id: number, name: string) => { createKeyPair(id: string, secret: string): void };
type S3ErrorClass = new (code: string, message: string, detail?: Record<string, unknown>) => Error;

const require = createRequire(import.meta.url);
const S3rver = require('@20minutes/s3rver') as S3rverClass;
const AWSAccount = require('@20minutes/s3rver/lib/models/account.js') as AccountClass;
const S3Error = require('@20minutes/s3rver/lib/models/error.js') as S3ErrorClass;

export type Credentials = { readonly accessKeyId: string; readonly secretAccessKey: string };
export type SeenRequest = { readonly method: string; readonly path: string; readonly query: Record<string, unknown> };

export type LocalS3 = {
  readonly endpoint: string;
  readonly bucket: string;
  readonly directory: string;
  readonly writer: Credentials;
  readonly readOnly: Credentials;
  readonly requests: SeenRequest[];
  /** Environment for an app (or `svc`) that stores bundles in this server's bucket. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  close(): Promise<void>;
};

const newCredentials = (): Credentials => ({
  accessKeyId: `AKIA${randomBytes(8).toString('hex').toUpperCase()}`,
  secretAccessKey: randomBytes(30).toString('base64'),
});

export const startLocalS3 = async (bucket = 'evidence-bucket'): Promise<LocalS3> => {
  const directory = mkdtempSync(join(tmpdir(), 'svc-s3rver-'));
  const writer = newCredentials();
  const readOnly = newCredentials();
  const account = new AWSAccount(100000000001, 'svc-tests');
  account.createKeyPair(writer.accessKeyId, writer.secretAccessKey);
  account.createKeyPair(readOnly.accessKeyId, readOnly.secretAccessKey);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const requests: SeenRequest[] = [];
  server.middleware.unshift(async (ctx, next) => {
    requests.push({ method: ctx.method, path: ctx.path, query: { ...ctx.query } });
    const authorization = String(ctx.headers.authorization ?? '');
    const signed = authorization !== '' || 'X-Amz-Algorithm' in ctx.query || 'Signature' in ctx.query;
    if (!signed) throw new S3Error('AccessDenied', 'Access Denied');
    const credential = String(ctx.query['X-Amz-Credential'] ?? /Credential=([^/,\s]+)/.exec(authorization)?.[1] ?? '');
    if (credential.startsWith(readOnly.accessKeyId) && !['GET', 'HEAD'].includes(ctx.method)) {
      throw new S3Error('AccessDenied', 'Access Denied');
    }
    await next();
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    writer,
    readOnly,
    requests,
    env: (extra = {}) => ({
      SVC_AUDIT_BYOS_PROVIDER: 's3',
      SVC_BYOS_S3_BUCKET: bucket,
      SVC_BYOS_S3_ENDPOINT: endpoint,
      SVC_BYOS_S3_REGION: 'us-east-1',
      SVC_BYOS_S3_PREFIX: 'team-a/bundles',
      AWS_ACCESS_KEY_ID: writer.accessKeyId,
      AWS_SECRET_ACCESS_KEY: writer.secretAccessKey,
      ...extra,
    }),
    close: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};
