import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe } from './app-per-describe.test-support.ts';
import { seedDays } from './test-support.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';

// One app per back end: the tests build on each other's bundles (the list counts them, the clock moves on).
describe.each(testBackends)('CEC REST routes on $name', (backend) => {
  let now = new Date('2026-06-10T08:00:00.000Z');
  const fixture = appPerDescribe(backend, { SVC_CEC_MAX_UPLOAD_BYTES: String(4 * 1024 * 1024) }, { now: () => now });
  let t: TestServer;

  beforeAll(async () => {
    t = await createTestServer({ app: fixture().app });
    await seedDays(fixture().app, 'web', ['2026-06-01', '2026-06-05', '2026-06-09']);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (payload: unknown, key?: string) =>
    t.server.inject({ method: 'POST', url: '/v1/risk/cec', headers: t.auth(key), payload: payload as Record<string, unknown> });

  describe('POST /v1/risk/cec and GET /v1/risk/cec/{bundle_id}', () => {
    it('builds (201) with the spec reply, defaulting to the last 30 days, and GET returns the same shape', async () => {
      const res = await post({ project_id: 'web', org_id: 'acme', frameworks: ['SOC 2 Type II', 'nist_ai_rmf'] });
      expect(res.statusCode).toBe(201);
      const body = res.json() as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual([
        'bundle_id',
        'download_url',
        'expires_at',
        'frameworks_covered',
        'generated_at',
        'hmac_manifest',
        'zip_path',
      ]);
      expect(body.zip_path).toMatch(/svc_cec_web_2026-05-12_2026-06-10\.zip$/);
      expect(body.frameworks_covered).toEqual(['soc2', 'nist_ai_rmf']);
      const got = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${String(body.bundle_id)}`, headers: t.auth() });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(body);
    });

    it('answers 404 Bundle not found for an unknown id', async () => {
      const res = await t.server.inject({ method: 'GET', url: '/v1/risk/cec/cec-01J00000000000000000000000', headers: t.auth() });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Bundle not found' });
    });

    it.each([
      [{}, /project_id/],
      [{ project_id: '' }, /project_id/],
      [{ project_id: 'web', frameworks: ['gdpr'] }, /Unknown framework/],
      [{ project_id: 'web', date_range: ['2026-06-01'] }, /date_range/],
      [{ project_id: 'web', date_range: ['2026-06-09', '2026-06-01'] }, /from is after to/],
      [{ project_id: 'web', output_dir: '../../etc' }, /inside the configured bundle directory/],
      [{ project_id: 'web', output_dir: '/tmp' }, /inside the configured bundle directory/],
    ])('answers 422 {detail} for %j', async (payload, message) => {
      const res = await post(payload);
      expect(res.statusCode).toBe(422);
      expect((res.json() as { detail: string }).detail).toMatch(message);
    });

    it('needs the api tier', async () => {
      expect((await t.server.inject({ method: 'POST', url: '/v1/risk/cec', payload: { project_id: 'web' } })).statusCode).toBe(401);
      expect((await post({ project_id: 'web' }, await t.newKey('free'))).statusCode).toBe(403);
      expect((await post({ project_id: 'web', date_range: ['2026-06-01', '2026-06-01'] }, await t.newKey('api'))).statusCode).toBe(201);
    });

    it('accepts org_secret as the HMAC key and an output_dir inside the bundle dir', async () => {
      const res = await post({
        project_id: 'web',
        org_secret: 'org-secret-0123456789abcdef',
        output_dir: 'acme',
        date_range: ['2026-06-01', '2026-06-09'],
      });
      expect(res.statusCode).toBe(201);
      const body = res.json() as { zip_path: string };
      expect(body.zip_path).toContain('/bundles/acme/');
      const withOrgKey = await t.server.inject({
        method: 'POST',
        url: '/api/ops/cec.verifyBundle',
        headers: t.auth(),
        payload: { zip_path: body.zip_path, key: 'org-secret-0123456789abcdef' },
      });
      expect((withOrgKey.json() as { value: { overall_valid: boolean } }).value.overall_valid).toBe(true);
      const withInstallKey = await t.server.inject({
        method: 'POST',
        url: '/api/ops/cec.verifyBundle',
        headers: t.auth(),
        payload: { zip_path: body.zip_path },
      });
      expect((withInstallKey.json() as { value: { manifest_valid: boolean } }).value.manifest_valid).toBe(false);
      const outside = await t.server.inject({
        method: 'POST',
        url: '/api/ops/cec.verifyBundle',
        headers: t.auth(),
        payload: { zip_path: '/etc/passwd' },
      });
      expect(outside.statusCode).toBe(403);
    });

    it('answers CEC build failed: <detail> when the build fails, 503 when it is the TSA that is down (docs/api.md)', async () => {
      await fixture().app.settings.update({ tsaUrl: 'http://127.0.0.1:9/tsa' });
      try {
        const res = await post({ project_id: 'web', date_range: ['2026-06-01', '2026-06-01'] });
        expect(res.statusCode).toBe(503);
        expect((res.json() as { detail: string }).detail).toMatch(/^CEC build failed: Timestamp authority/);
      } finally {
        await fixture().app.settings.update({ tsaUrl: '' });
      }
    });
  });

  describe('bundle file routes', () => {
    let built: { bundle_id: string; zip_path: string };
    beforeAll(async () => {
      built = (await post({ project_id: 'web', date_range: ['2026-06-01', '2026-06-09'] })).json() as typeof built;
    });

    it('verifies an uploaded ZIP, good and tampered', async () => {
      const zip = readFileSync(built.zip_path);
      const good = await t.server.inject({
        method: 'POST',
        url: '/v1/risk/cec/verify',
        headers: { ...t.auth(), 'content-type': 'application/zip' },
        payload: zip,
      });
      expect(good.statusCode).toBe(200);
      expect(good.json()).toMatchObject({ bundle_id: built.bundle_id, overall_valid: true, errors: [] });
      const entries = await readAllEntries(built.zip_path);
      entries.set(
        'clause_map.json',
        Buffer.from((entries.get('clause_map.json') as Buffer).toString('utf8').replace('"schema_version":2', '"schema_version":3')),
      );
      const tamperedPath = `${built.zip_path}.tampered.zip`;
      await writeEntries(tamperedPath, entries);
      const bad = await t.server.inject({
        method: 'POST',
        url: '/v1/risk/cec/verify',
        headers: { ...t.auth(), 'content-type': 'application/zip' },
        payload: readFileSync(tamperedPath),
      });
      expect(bad.json()).toMatchObject({
        manifest_valid: false,
        overall_valid: false,
        errors: ['SHA-256 of clause_map.json does not match the manifest'],
      });
    });

    it('refuses uploads over the cap, without auth, or as JSON', async () => {
      const big = Buffer.alloc(5 * 1024 * 1024);
      const tooBig = await t.server.inject({
        method: 'POST',
        url: '/v1/risk/cec/verify',
        headers: { ...t.auth(), 'content-type': 'application/zip' },
        payload: big,
      });
      expect(tooBig.statusCode).toBe(413);
      const anonymous = await t.server.inject({
        method: 'POST',
        url: '/v1/risk/cec/verify',
        headers: { 'content-type': 'application/zip' },
        payload: Buffer.from('x'),
      });
      expect(anonymous.statusCode).toBe(401);
      const json = await t.server.inject({ method: 'POST', url: '/v1/risk/cec/verify', headers: t.auth(), payload: { a: 1 } });
      expect(json.statusCode).toBe(415);
    });

    it('downloads the ZIP until it expires, and reissue brings it back', async () => {
      const res = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${built.bundle_id}/download`, headers: t.auth() });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.rawPayload.equals(readFileSync(built.zip_path))).toBe(true);
      now = new Date(now.getTime() + 25 * 3600 * 1000);
      const expired = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${built.bundle_id}/download`, headers: t.auth() });
      expect(expired.statusCode).toBe(410);
      const reissued = await t.server.inject({ method: 'POST', url: `/v1/risk/cec/${built.bundle_id}/reissue`, headers: t.auth() });
      expect(reissued.statusCode).toBe(200);
      expect((reissued.json() as { expires_at: string }).expires_at).toBe(new Date(now.getTime() + 24 * 3600 * 1000).toISOString());
      expect(
        (await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${built.bundle_id}/download`, headers: t.auth() })).statusCode,
      ).toBe(200);
      const unknown = await t.server.inject({ method: 'POST', url: '/v1/risk/cec/cec-nope/reissue', headers: t.auth() });
      expect(unknown.statusCode).toBe(404);
    });

    it('lists bundles and serves the public key', async () => {
      const list = await t.server.inject({ method: 'GET', url: '/v1/risk/cec?limit=2', headers: t.auth() });
      expect(list.statusCode).toBe(200);
      const page = list.json() as { total: number; items: { bundle_id: string; zip_exists: boolean }[] };
      expect(page.items).toHaveLength(2);
      expect(page.total).toBeGreaterThanOrEqual(3);
      const key = await t.server.inject({ method: 'GET', url: '/v1/risk/cec/public-key', headers: t.auth(await t.newKey('free')) });
      expect(key.statusCode).toBe(200);
      expect(key.json()).toMatchObject({ jwk: { kty: 'OKP', crv: 'Ed25519' }, pem: expect.stringContaining('BEGIN PUBLIC KEY') });
    });
  });
});
