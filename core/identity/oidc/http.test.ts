import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../../http/test-support.ts';
import { testBackends } from '../../test-support/backends.ts';
import { followLogin, providerEnv, startTestProvider, type TestProvider } from './test/provider.ts';

const callback = 'http://localhost:80/oidc/callback';
let provider: TestProvider;
let t: TestServer;
/** The configured apps' environment: filled once the provider is up, before any test makes its app. */
const oidcEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  // The service normalises the redirect URI (the default port disappears), as the token request will.
  provider = await startTestProvider({ redirectUris: [new URL(callback).href] });
  Object.assign(oidcEnv, providerEnv(provider));
});
afterAll(() => provider.close());

/** The login cookie /oidc/login set, as a Cookie header (the browser that started the login holds it). */
const bindingOf = (setCookie: string | string[] | undefined): string => String(setCookie).split(';')[0] ?? '';

describe.each(testBackends)('OIDC HTTP routes on $name', (backend) => {
  describe('configured', () => {
    const server = serverPerTest(backend, { env: oidcEnv });
    const start = async () => {
      t = await server();
    };

    it('logs a browser in: /oidc/login, the provider, /oidc/callback, session cookie', async () => {
      await start();
      const login = await t.server.inject({ method: 'GET', url: '/oidc/login' });
      expect(login.statusCode).toBe(302);
      expect(login.headers['set-cookie']).toMatch(/^svc_oidc_login=[\w-]{43}; Path=\/oidc; HttpOnly; SameSite=Lax; Max-Age=600$/);
      const back = await followLogin(String(login.headers.location), callback);
      const res = await t.server.inject({
        method: 'GET',
        url: `/oidc/callback${back.search}`,
        headers: { cookie: bindingOf(login.headers['set-cookie']) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('url=/');
      const cookie = /svc_session=[^;]+/.exec(String(res.headers['set-cookie']))?.[0] ?? '';
      expect(String(res.headers['set-cookie'])).toContain('svc_oidc_login=; Path=/oidc; HttpOnly; SameSite=Lax; Max-Age=0');
      const session = await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie } });
      expect(session.json()).toMatchObject({ authenticated: true, subject: 'alice', tier: 'free' });
    });

    it('refuses a replayed callback and reports provider errors clearly', async () => {
      await start();
      const login = await t.server.inject({ method: 'GET', url: '/oidc/login' });
      const back = await followLogin(String(login.headers.location), callback);
      const cookie = bindingOf(login.headers['set-cookie']);
      await t.server.inject({ method: 'GET', url: `/oidc/callback${back.search}`, headers: { cookie } });
      const replay = await t.server.inject({
        method: 'GET',
        url: `/oidc/callback${back.search}`,
        headers: { accept: 'application/json', cookie },
      });
      expect(replay.statusCode).toBe(401);
      expect(replay.json()).toMatchObject({ check: 'state' });
      const denied = await t.server.inject({ method: 'GET', url: '/oidc/callback?error=access_denied&state=x' });
      expect(denied.statusCode).toBe(401);
      expect(denied.body).toContain('access_denied');
    });

    it('refuses the login-CSRF flow: a callback opened in another browser than the one that started the login', async () => {
      await start();
      // Victim: signed in as admin through the one-time link, no login of their own under way.
      const victimLogin = await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: t.adminKey } });
      const victim = String(victimLogin.headers['set-cookie']).split(';')[0] ?? '';
      // Attacker: starts a login in his own browser and signs in at the IdP as himself (bob).
      const attackerStart = await t.server.inject({ method: 'GET', url: '/oidc/login' });
      provider.loginAs('bob');
      const back = await followLogin(String(attackerStart.headers.location), callback);
      provider.loginAs('alice');
      // The victim's browser is sent to the attacker's callback URL (top-level navigation, no Origin header).
      const forced = await t.server.inject({ method: 'GET', url: `/oidc/callback${back.search}`, headers: { cookie: victim } });
      expect(forced.statusCode).toBe(401);
      expect(forced.body).toContain('another browser');
      expect(String(forced.headers['set-cookie'])).not.toContain('svc_session=ey');
      const still = await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie: victim } });
      expect(still.json()).toMatchObject({ authenticated: true, tier: 'admin' });
      // A victim with a login of their own under way holds a different binding: refused as well.
      const victimStart = await t.server.inject({ method: 'GET', url: '/oidc/login' });
      const second = await t.server.inject({ method: 'GET', url: '/oidc/login' });
      provider.loginAs('bob');
      const back2 = await followLogin(String(second.headers.location), callback);
      provider.loginAs('alice');
      const own = `${victim}; ${bindingOf(victimStart.headers['set-cookie'])}`;
      const forced2 = await t.server.inject({
        method: 'GET',
        url: `/oidc/callback${back2.search}`,
        headers: { cookie: own, accept: 'application/json' },
      });
      expect(forced2.statusCode).toBe(401);
      expect(forced2.json()).toMatchObject({ check: 'browser' });
    });
  });

  describe('unconfigured', () => {
    const server = serverPerTest(backend);
    it('explains a missing configuration instead of failing obscurely', async () => {
      t = await server();
      const res = await t.server.inject({ method: 'GET', url: '/oidc/login', headers: { accept: 'application/json' } });
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toMatch(/no OIDC provider URL/);
    });
  });
});
