import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exampleEvidence } from '../audit/examples.ts';
import { maxJsonDepth } from '../audit/json-depth.ts';
import { createApiKey, revokeApiKey } from '../identity/api-keys/service.ts';
import { issueLoginLink } from '../identity/login-links/store.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { createTestServer, type TestServer } from './test-support.ts';

describe.each(testBackends)('the HTTP server on $name', (backend) => {
  const backendApp = appPerTest(backend);
  let t: TestServer;
  beforeEach(async () => {
    t = await createTestServer({ app: backendApp().app });
  });
  afterEach(async () => t.close());

  describe('local HTTP API security', () => {
    it('answers the health route without a credential', async () => {
      const response = await t.server.inject({ method: 'GET', url: '/v1/svc/status' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
    });

    it('answers 401 with WWW-Authenticate when no key is sent', async () => {
      const response = await t.server.inject({ method: 'GET', url: '/v1/keys' });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Bearer');
      const rpc = await t.server.inject({ method: 'POST', url: '/api/ops/keys.list', payload: {} });
      expect(rpc.statusCode).toBe(401);
      expect(rpc.json()).toEqual({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
    });

    it('rejects a Host header that does not name the server (DNS rebinding)', async () => {
      const response = await t.server.inject({ method: 'GET', url: '/v1/svc/status', headers: { host: 'attacker.example:80' } });
      expect(response.statusCode).toBe(421);
    });

    it('rejects a browser Origin other than its own (CSRF), accepts its own', async () => {
      const evil = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.list',
        headers: { ...t.auth(), origin: 'https://evil.example' },
        payload: {},
      });
      expect(evil.statusCode).toBe(403);
      const own = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.list',
        headers: { ...t.auth(), origin: 'http://localhost' },
        payload: {},
      });
      expect(own.statusCode).toBe(200);
    });

    it('refuses a free key on an admin route with 403 and accepts an admin key', async () => {
      const free = await t.newKey('free');
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth(free) })).statusCode).toBe(403);
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth() })).statusCode).toBe(200);
    });

    it('rejects revoked and expired keys', async () => {
      const key = await createApiKey(t.app, { tier: 'admin', name: 'short' });
      await revokeApiKey(t.app, key.id);
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth(key.secret) })).statusCode).toBe(401);
      const typo = `${t.adminKey.slice(0, -1)}${t.adminKey.endsWith('A') ? 'B' : 'A'}`;
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth(typo) })).statusCode).toBe(401);
    });

    it('sets security headers and a request id on every response', async () => {
      const response = await t.server.inject({ method: 'GET', url: '/v1/svc/status' });
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['content-security-policy']).toContain("default-src 'self'");
      expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('op routes and errors', () => {
    it('answers an unknown op with NOT_FOUND', async () => {
      const response = await t.server.inject({ method: 'POST', url: '/api/ops/nope.nothing', headers: t.auth(), payload: {} });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe('NOT_FOUND');
    });

    it('answers invalid input with VALIDATION and writes nothing', async () => {
      const response = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.create',
        headers: t.auth(),
        payload: { tier: 'superuser' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('tier') });
      const list = await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth() });
      expect(list.json()).toHaveLength(1);
    });

    it('answers malformed JSON with 400', async () => {
      const response = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.create',
        headers: { ...t.auth(), 'content-type': 'application/json' },
        payload: '{"tier": ',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: 'VALIDATION', message: 'Malformed JSON body' });
    });

    it('refuses JSON nested deeper than the limit without parsing it', async () => {
      const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
      const response = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.list',
        headers: { ...t.auth(), 'content-type': 'application/json' },
        payload: deep,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('nested');
    });

    it('takes over HTTP the deepest evidence payload the store takes, and refuses one level more', async () => {
      // A payload of `depth` levels: the record's own object, then its free-form `extra` nested the rest of the way.
      const append = (depth: number) => {
        let extra: Record<string, unknown> = { leaf: 1 };
        for (let level = 2; level < depth; level++) extra = { d: extra };
        const record = exampleEvidence(0, 'deep');
        return t.server.inject({
          method: 'POST',
          url: '/api/ops/audit.append',
          headers: { ...t.auth(), 'content-type': 'application/json' },
          payload: JSON.stringify({ records: [{ ...record, payload: { ...record.payload, extra } }] }),
        });
      };
      const deepest = await append(maxJsonDepth);
      expect(deepest.statusCode).toBe(200);
      expect(deepest.json()).toMatchObject({ ok: true });
      const deeper = await append(maxJsonDepth + 1);
      expect(deeper.statusCode).toBe(400);
      // Refused by the body parser (its limit is the store's plus the envelope), before any record is read.
      expect(deeper.json().error.message).toMatch(/nested deeper than \d+ levels/);
    });

    it('answers a body over 1 MiB with 413 request_too_large', async () => {
      const response = await t.server.inject({
        method: 'POST',
        url: '/api/ops/keys.list',
        headers: { ...t.auth(), 'content-type': 'application/json' },
        payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024) }),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'request_too_large' });
    });

    it('serves the REST binding with its status code (201 on key creation)', async () => {
      const response = await t.server.inject({ method: 'POST', url: '/v1/keys', headers: t.auth(), payload: { tier: 'api', name: 'ci' } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ tier: 'api', name: 'ci', secret: expect.stringMatching(/^svc_/) });
    });

    it('publishes an OpenAPI document derived from the table', async () => {
      const doc = (await t.server.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.paths['/api/ops/keys.create']).toBeDefined();
      expect(doc.paths['/v1/keys/{id}']).toBeDefined();
    });
  });

  describe('API key exchange and browser sessions', () => {
    it('exchanges an API key for a session JWT that authenticates, until the key is revoked', async () => {
      const key = await createApiKey(t.app, { tier: 'admin', name: 'exchange' });
      const exchange = await t.server.inject({ method: 'POST', url: '/v1/auth/token', payload: { api_key: key.secret } });
      expect(exchange.statusCode).toBe(200);
      const { access_token, token_type, expires_in } = exchange.json();
      expect(token_type).toBe('Bearer');
      expect(expires_in).toBe(900);
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth(access_token) })).statusCode).toBe(200);
      await revokeApiKey(t.app, key.id);
      expect((await t.server.inject({ method: 'GET', url: '/v1/keys', headers: t.auth(access_token) })).statusCode).toBe(401);
    });

    it('turns a one-time login link into an HttpOnly SameSite=Strict cookie, once', async () => {
      const token = await issueLoginLink(t.app.database, t.app.now());
      const login = await t.server.inject({ method: 'GET', url: `/login?token=${token}` });
      expect(login.statusCode).toBe(303);
      const cookie = String(login.headers['set-cookie']);
      expect(cookie).toMatch(/svc_session=.+; Path=\/; HttpOnly; SameSite=Strict; Max-Age=28800/);
      const session = await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie: cookie.split(';')[0] ?? '' } });
      expect(session.json()).toMatchObject({ authenticated: true, tier: 'admin' });
      const again = await t.server.inject({ method: 'GET', url: `/login?token=${token}` });
      expect(again.statusCode).toBe(401);
    });

    it('with SSO required, keeps admin-key sign-in as break-glass and refuses other keys', async () => {
      await t.app.settings.update({ requireSso: 'oidc' });
      const apiTier = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: await t.newKey('api') } });
      expect(apiTier.statusCode).toBe(403);
      const admin = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: t.adminKey } });
      expect(admin.statusCode).toBe(200);
      const session = await t.server.inject({ method: 'GET', url: '/auth/session' });
      expect(session.json().sso.required).toBe('oidc');
    });

    it('logs in with an admin API key (break-glass) and logs out', async () => {
      const login = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: t.adminKey } });
      expect(login.statusCode).toBe(200);
      const cookie = String(login.headers['set-cookie']).split(';')[0] ?? '';
      const rpc = await t.server.inject({ method: 'POST', url: '/api/ops/keys.list', headers: { cookie }, payload: {} });
      expect(rpc.json().ok).toBe(true);
      const bad = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: 'svc_nope' } });
      expect(bad.statusCode).toBe(401);
      const logout = await t.server.inject({ method: 'POST', url: '/auth/logout', headers: { cookie } });
      expect(String(logout.headers['set-cookie'])).toContain('Max-Age=0');
    });
  });
});
