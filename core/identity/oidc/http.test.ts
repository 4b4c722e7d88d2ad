import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { followLogin, startTestProvider, type TestProvider } from './test/provider.ts';

const callback = 'http://localhost:80/oidc/callback';
let provider: TestProvider;
let t: TestServer;

beforeAll(async () => {
  // The service normalises the redirect URI (the default port disappears), as the token request will.
  provider = await startTestProvider({ redirectUris: [new URL(callback).href] });
});
afterAll(() => provider.close());
afterEach(() => t?.close());

const start = async () => {
  t = await createTestServer({
    env: {
      SVC_OIDC_PROVIDER_URL: provider.issuer,
      SVC_OIDC_CLIENT_ID: provider.clientId,
      SVC_OIDC_CLIENT_SECRET: provider.clientSecret,
    },
  });
};

describe('OIDC HTTP routes', () => {
  it('logs a browser in: /oidc/login, the provider, /oidc/callback, session cookie', async () => {
    await start();
    const login = await t.server.inject({ method: 'GET', url: '/oidc/login' });
    expect(login.statusCode).toBe(302);
    const back = await followLogin(String(login.headers.location), callback);
    const res = await t.server.inject({ method: 'GET', url: `/oidc/callback${back.search}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('url=/');
    const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    const session = await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ authenticated: true, subject: 'alice', tier: 'free' });
  });

  it('refuses a replayed callback and reports provider errors clearly', async () => {
    await start();
    const login = await t.server.inject({ method: 'GET', url: '/oidc/login' });
    const back = await followLogin(String(login.headers.location), callback);
    await t.server.inject({ method: 'GET', url: `/oidc/callback${back.search}` });
    const replay = await t.server.inject({ method: 'GET', url: `/oidc/callback${back.search}`, headers: { accept: 'application/json' } });
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toMatchObject({ check: 'state' });
    const denied = await t.server.inject({ method: 'GET', url: '/oidc/callback?error=access_denied&state=x' });
    expect(denied.statusCode).toBe(401);
    expect(denied.body).toContain('access_denied');
  });

  it('explains a missing configuration instead of failing obscurely', async () => {
    t = await createTestServer();
    const res = await t.server.inject({ method: 'GET', url: '/oidc/login', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/no OIDC provider URL/);
  });
});
