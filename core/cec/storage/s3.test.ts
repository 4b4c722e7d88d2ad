import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeleteObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createTestServer } from '../../http/test-support.ts';
import { appendEvidence } from '../../audit/store.ts';
import { SFCECBuildError } from '../../errors.ts';
import type { Actor } from '../../ops/define.ts';
import { dispatch } from '../../ops/dispatch.ts';
import { SFCECClient } from '../client.ts';
import { testBackends } from '../../test-support/backends.ts';
import { bundleAppPerTest, samplePayloads, seedDays, tempApp } from '../test-support.ts';
import { uploadPartBytes } from './s3-bundles.ts';
import { type LocalS3, startLocalS3 } from './s3-server.test-support.ts';
import { checkBundleStorage } from './stored-bundles.ts';

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
});
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

const setup = (env: NodeJS.ProcessEnv = {}) => {
  const fixture = tempApp(s3.env(env));
  cleanups.push(fixture.cleanup);
  return { ...fixture, client: new SFCECClient({ app: fixture.app }) };
};
const local: Actor = { kind: 'local', id: 'desktop', tier: 'admin', scopes: [] };
const remote: Actor = { kind: 'apiKey', id: 'key-1', tier: 'api', scopes: [] };
const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const get = async (url: string) => {
  const response = await fetch(url);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
};
/** The bytes s3rver keeps for an object: read from its own store, independently of any S3 API call. */
const storedBytes = (key: string): Buffer => {
  const dir = join(s3.directory, s3.bucket, ...key.split('/').slice(0, -1));
  const name = readdirSync(dir).find((file) => file.startsWith(`${key.split('/').at(-1)}._S3rver_object`) && !file.endsWith('md5'));
  return readFileSync(join(dir, name ?? 'missing'));
};
const keyOf = (url: string): string => decodeURIComponent(new URL(url).pathname.split('/').slice(2).join('/'));

/** Evidence whose bundle is larger than one upload part: random (incompressible) bytes in each record's `extra`. */
const seedLarge = async (app: App, projectId: string, records: number): Promise<void> => {
  await appendEvidence(
    app,
    Array.from({ length: records }, (_, i) => ({
      project_id: projectId,
      schema_key: 'score_records' as const,
      timestamp: '2026-05-01T12:00:00.000Z',
      payload: { ...samplePayloads.score_records, extra: { blob: randomBytes(12_000).toString('base64'), i } },
    })),
  );
};

describe('BYOS s3: bundles in an S3-compatible bucket', () => {
  it('streams a bundle larger than one part in parts, records its SHA-256, and a plain GET of download_url returns those bytes, which verify', async () => {
    const { app, client } = setup();
    await seedLarge(app, 'big', 700);
    s3.requests.length = 0;
    const result = await client.buildBundle('big', ['2026-05-01', '2026-05-01']);
    const parts = s3.requests.filter((r) => r.method === 'PUT' && r.query.partNumber !== undefined && r.query.uploadId !== undefined);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(result.download_url).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/team-a/bundles/${result.bundle_id}/svc_cec_big_`));
    expect(result.download_url).toContain('X-Amz-Signature=');
    const expiresIn = Number(new URL(result.download_url).searchParams.get('X-Amz-Expires'));
    expect(Math.abs(Date.parse(result.expires_at) - (Date.now() + expiresIn * 1000))).toBeLessThan(60_000);
    // The local copy is released once the bucket holds a verified one.
    expect(existsSync(result.zip_path)).toBe(false);

    const download = await get(result.download_url);
    expect(download.status).toBe(200);
    expect(download.body.length).toBeGreaterThan(uploadPartBytes);
    expect(download.body.equals(storedBytes(keyOf(result.download_url)))).toBe(true);
    const listed = await dispatch('cec.listBundles', {}, { app, actor: local });
    const item = (listed as { ok: true; value: { items: { bundle_id: string; sha256: string; size_bytes: number; stored_at: string }[] } })
      .value.items[0];
    expect(item).toMatchObject({ bundle_id: result.bundle_id, size_bytes: download.body.length, sha256: sha256(download.body) });
    expect(item?.stored_at).toBe(`s3://${s3.bucket}/${keyOf(result.download_url)}`);

    const viaUrl = await dispatch('cec.verifyUrl', { url: result.download_url }, { app, actor: local });
    expect(viaUrl).toMatchObject({ ok: true, value: { bundle_id: result.bundle_id, overall_valid: true } });
    const viaS3 = await dispatch('cec.verifyUrl', { url: item?.stored_at }, { app, actor: local });
    expect(viaS3).toMatchObject({ ok: true, value: { bundle_id: result.bundle_id, overall_valid: true } });
    expect(await client.getStatus()).toMatchObject({ byos_provider: 's3', bundle_count: 1 });
  });

  it('honours expiry: a URL issued 25 h ago is refused by the server; reissue presigns one that works; unsigned or tampered GETs fail', async () => {
    let now = new Date(Date.now() - 25 * 3600_000);
    const { app, client } = setup();
    (app as { now: () => Date }).now = () => now;
    await seedDays(app, 'p', ['2026-03-01']);
    const built = await client.buildBundle('p', ['2026-03-01', '2026-03-01']);
    const expired = await get(built.download_url);
    expect(expired.status).toBe(403);
    expect(expired.body.toString()).toContain('Request has expired');
    expect((await get(built.download_url.split('?')[0] ?? '')).status).toBe(403);
    const tampered = built.download_url.replace(/X-Amz-Expires=\d+/, 'X-Amz-Expires=604800');
    expect((await get(tampered)).body.toString()).toContain('SignatureDoesNotMatch');

    now = new Date();
    const reissued = await client.reissueDownloadUrl(built.bundle_id);
    expect(Date.parse(reissued.expires_at)).toBe(now.getTime() + 24 * 3600_000);
    expect(reissued.bundle_id).toBe(built.bundle_id);
    const fresh = await get(reissued.download_url);
    expect(fresh.status).toBe(200);
    expect(fresh.body.length).toBeGreaterThan(1000);
    expect((await client.getBundle(built.bundle_id))?.expires_at).toBe(reissued.expires_at);
  });

  it('reissue of a bundle whose object is gone raises SFCECBuildError NOT_FOUND (404 over the op)', async () => {
    const { app, client } = setup();
    await seedDays(app, 'gone', ['2026-03-02']);
    const built = await client.buildBundle('gone', ['2026-03-02', '2026-03-02']);
    const admin = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.writer });
    await admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: keyOf(built.download_url) }));
    admin.destroy();
    const error = await client.reissueDownloadUrl(built.bundle_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SFCECBuildError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('gone from the bucket') });
    expect((await get(built.download_url)).status).toBe(404);
    expect(await dispatch('cec.verifyUrl', { url: built.download_url }, { app, actor: local })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND', message: expect.stringContaining('NoSuchKey') },
    });
  });

  it('a build while the bucket is unreachable fails with UNAVAILABLE naming the setting, registers nothing and leaves no file', async () => {
    const { app, dir } = setup({ SVC_BYOS_S3_ENDPOINT: 'http://127.0.0.1:9' });
    await seedDays(app, 'down', ['2026-03-03']);
    const result = await dispatch(
      'cec.buildBundle',
      { project_id: 'down', date_range: ['2026-03-03', '2026-03-03'] },
      { app, actor: local },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    const message = (result as { error: { message: string } }).error.message;
    expect(message).toMatch(
      /^CEC build failed: Object storage: SVC_BYOS_S3_ENDPOINT http:\/\/127\.0\.0\.1:9 is unreachable \(ECONNREFUSED\)/,
    );
    expect(message).not.toContain(s3.writer.secretAccessKey);
    expect(await new SFCECClient({ app }).getStatus()).toMatchObject({ bundle_count: 0 });
    expect(readdirSync(join(dir, 'bundles')).filter((name) => !name.startsWith('.'))).toEqual([]);
    const again = await dispatch('cec.listBundles', {}, { app, actor: local });
    expect(again).toMatchObject({ ok: true, value: { total: 0 } });
  });

  it('the start-up probe passes on a writable bucket and names the setting for each misconfiguration, without secrets', async () => {
    const probe = async (env: NodeJS.ProcessEnv) => {
      const { app } = setup(env);
      return checkBundleStorage(app).then(
        () => 'ok',
        (error: Error) => error.message,
      );
    };
    expect(await probe({})).toBe('ok');
    expect(s3.requests.some((r) => r.method === 'PUT' && r.path.endsWith('/team-a/bundles/.svc-write-probe'))).toBe(true);
    const wrongSecret = await probe({ AWS_SECRET_ACCESS_KEY: 'not-the-secret-0123456789' });
    expect(wrongSecret).toMatch(/AWS credentials were refused .*SignatureDoesNotMatch/);
    expect(await probe({ AWS_ACCESS_KEY_ID: 'AKIAUNKNOWN000000000' })).toMatch(/AWS credentials were refused .*InvalidAccessKeyId/);
    expect(await probe({ SVC_BYOS_S3_BUCKET: 'no-such-bucket' })).toMatch(/SVC_BYOS_S3_BUCKET "no-such-bucket" does not exist/);
    const readOnly = await probe({ AWS_ACCESS_KEY_ID: s3.readOnly.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.readOnly.secretAccessKey });
    expect(readOnly).toMatch(/PutObject of the start-up probe was denied in SVC_BYOS_S3_BUCKET "evidence-bucket" under SVC_BYOS_S3_PREFIX/);
    expect(await probe({ SVC_BYOS_S3_ENDPOINT: 'http://127.0.0.1:9' })).toMatch(
      /SVC_BYOS_S3_ENDPOINT http:\/\/127\.0\.0\.1:9 is unreachable/,
    );
    expect(await probe({ SVC_BYOS_S3_BUCKET: '' })).toMatch(/SVC_BYOS_S3_BUCKET is not set/);
    for (const secret of [s3.writer.secretAccessKey, s3.readOnly.secretAccessKey, 'not-the-secret']) {
      expect([wrongSecret, readOnly].join('\n')).not.toContain(secret);
    }
  });

  it('over HTTP: the download route redirects to the presigned URL, OSCAL exports from the bucket, REST reissue of a gone object is 404', async () => {
    const { app, client } = setup();
    await seedDays(app, 'web', ['2026-03-04']);
    const built = await client.buildBundle('web', ['2026-03-04', '2026-03-04']);
    const t = await createTestServer({ app });
    try {
      const download = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${built.bundle_id}/download`, headers: t.auth() });
      expect(download.statusCode).toBe(302);
      const location = String(download.headers.location);
      expect(location.split('?')[0]).toBe(built.download_url.split('?')[0]);
      expect((await get(location)).status).toBe(200);
      const oscal = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${built.bundle_id}/oscal`, headers: t.auth() });
      expect(oscal.statusCode).toBe(200);
      expect(oscal.json()).toHaveProperty('assessment-results');
      const admin = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: s3.writer });
      await admin.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: keyOf(built.download_url) }));
      admin.destroy();
      const reissue = await t.server.inject({ method: 'POST', url: `/v1/risk/cec/${built.bundle_id}/reissue`, headers: t.auth() });
      expect(reissue.statusCode).toBe(404);
      expect(reissue.json()).toMatchObject({ detail: expect.stringContaining('gone from the bucket') });
    } finally {
      await t.close();
    }
  });

  it('remote callers may only have the server fetch from the configured bucket (no SSRF)', async () => {
    const { app } = setup();
    for (const url of ['http://169.254.169.254/latest/meta-data/', 's3://other-bucket/x.zip', 'https://example.com/b.zip']) {
      expect(await dispatch('cec.verifyUrl', { url }, { app, actor: remote })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    const missing = await dispatch('cec.verifyUrl', { url: `s3://${s3.bucket}/team-a/none.zip` }, { app, actor: remote });
    expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });
});

describe.each(testBackends)('BYOS s3 with the registry on $name', (backend) => {
  const t = bundleAppPerTest(backend, () => s3.env());

  it("a stored bundle's registry row (bucket, key, SHA-256) serves another instance: presigned URL, list, reissue", async () => {
    const { app } = t();
    await seedDays(app, 'team', ['2026-05-01']);
    const built = await new SFCECClient({ app }).buildBundle('team', ['2026-05-01', '2026-05-01']);
    const second = await t().second();
    const fetched = await new SFCECClient({ app: second }).getBundle(built.bundle_id);
    expect(fetched?.download_url.split('?')[0]).toBe(built.download_url.split('?')[0]);
    const download = await get(fetched?.download_url ?? '');
    expect(download.status).toBe(200);
    const listed = await dispatch('cec.listBundles', {}, { app: second, actor: local });
    const item = (listed as { ok: true; value: { items: { bundle_id: string; sha256: string; stored_at: string }[] } }).value.items[0];
    expect(item).toMatchObject({
      bundle_id: built.bundle_id,
      sha256: sha256(download.body),
      stored_at: `s3://${s3.bucket}/${keyOf(built.download_url)}`,
    });
    const reissued = await new SFCECClient({ app: second }).reissueDownloadUrl(built.bundle_id);
    expect((await get(reissued.download_url)).body.equals(download.body)).toBe(true);
  });
});
