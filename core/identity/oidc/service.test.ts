import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { verifySessionJwt } from '../api-keys/jwt.ts';
import { sessionOrigin } from '../sessions/store.ts';
import { getSession } from '../sso/sessions.ts';
import { oidcAuthorize, oidcCallback } from './service.ts';
import { followLogin, providerEnv, startTestProvider, type TestProvider } from './test/provider.ts';

const redirectUri = 'http://127.0.0.1:9/oidc/callback';
let provider: TestProvider;
let app: App;
let clock = Date.now();
/** The configured apps' environment: filled once the provider is up, before any test makes its app. */
const oidcEnv: NodeJS.ProcessEnv = {};

beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [redirectUri] });
  Object.assign(oidcEnv, providerEnv(provider), { SVC_OIDC_REDIRECT_URI: redirectUri });
});
afterAll(() => provider.close());

/** Runs authorize and the browser part; returns the code and state the provider redirected with. */
const loginAt = async (account = 'alice') => {
  provider.loginAs(account);
  const request = await oidcAuthorize(app);
  const callback = await followLogin(request.authorization_url, redirectUri);
  return { request, code: callback.searchParams.get('code') ?? '', state: callback.searchParams.get('state') ?? '' };
};

const failure = async (promise: Promise<unknown>): Promise<SFIdentityError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SFIdentityError) return error;
    throw error;
  }
  throw new Error('expected an SFIdentityError');
};

describe.each(testBackends)('OIDC against a real oidc-provider on $name', (backend) => {
  const apps = appPerTest(backend, { env: oidcEnv, now: () => new Date(clock) });
  const newApp = (): App => {
    clock = Date.now();
    app = apps().app;
    return app;
  };

  it('runs the full flow: authorize, login, code, callback, tokens, SSO session and session JWT', async () => {
    newApp();
    const { request, code, state } = await loginAt();
    expect(request.authorization_url).toContain('code_challenge_method=S256');
    expect(new URL(request.authorization_url).searchParams.get('code_challenge')).toBe(request.code_challenge);
    expect(state).toBe(request.state);
    const result = await oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' });
    expect(result).toMatchObject({ token_type: 'Bearer', subject: 'alice', email: 'alice@example.org' });
    expect(result.access_token.length).toBeGreaterThan(10);
    expect(result.id_token?.split('.')).toHaveLength(3);
    expect(result.expires_in).toBeGreaterThan(0);
    const actor = await verifySessionJwt(app, result.session_jwt);
    expect(actor).toMatchObject({ kind: 'session', subject: 'alice', tier: 'free' });
    const session = await getSession(app, (await sessionOrigin(app, actor.id)) ?? '');
    expect(session).toMatchObject({ subject: 'alice', email: 'alice@example.org', revoked: false });
    expect(session.idp_session_id.length).toBeGreaterThan(0);
  });

  it('keeps state, nonce and verifier server-side with expiry, and caches discovery per issuer', async () => {
    newApp();
    let discoveries = 0;
    app.services.set('oidc.fetch', (url: string, options: RequestInit) => {
      if (url.includes('/.well-known/openid-configuration')) discoveries += 1;
      return fetch(url, options);
    });
    const first = await oidcAuthorize(app);
    await oidcAuthorize(app);
    expect(discoveries).toBe(1);
    const pending = z.object({ nonce: z.string(), code_verifier: z.string(), expires_at: z.string() });
    const row = await app.database.one(pending, 'SELECT nonce, code_verifier, expires_at FROM oidc_pending WHERE state = ?', [first.state]);
    expect(row?.nonce.length).toBeGreaterThan(0);
    expect(row?.code_verifier).toBe(first.code_verifier);
    expect(Date.parse(row?.expires_at ?? '') - clock).toBe(600_000);
  });

  it('rejects a state it never issued', async () => {
    newApp();
    const { code } = await loginAt();
    const error = await failure(oidcCallback(app, { code, state: 'forged-state', subject: 'alice', email: 'alice@example.org' }));
    expect(error.detail?.['check']).toBe('state');
  });

  it('rejects an expired state', async () => {
    newApp();
    const { code, state } = await loginAt();
    clock += 11 * 60_000;
    const error = await failure(oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' }));
    expect(error.message).toMatch(/state mismatch/);
  });

  it('rejects a replayed code, with the used state and with a fresh one', async () => {
    newApp();
    const { code, state } = await loginAt();
    await oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' });
    const replay = await failure(oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' }));
    expect(replay.detail?.['check']).toBe('state');
    const fresh = await oidcAuthorize(app);
    const foreign = await failure(oidcCallback(app, { code, state: fresh.state, subject: 'alice', email: 'alice@example.org' }));
    expect(foreign.detail?.['check']).toBe('token');
    expect(foreign.message).toMatch(/invalid_grant/);
  });

  it('rejects a wrong PKCE verifier', async () => {
    newApp();
    const { code, state } = await loginAt();
    expect(await app.database.run('UPDATE oidc_pending SET code_verifier = ? WHERE state = ?', ['x'.repeat(64), state])).toBe(1);
    const error = await failure(oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' }));
    expect(error.message).toMatch(/invalid_grant/);
  });

  it('rejects a tampered ID token', async () => {
    newApp();
    const { code, state } = await loginAt();
    app.services.set('oidc.fetch', async (url: string, options: RequestInit) => {
      const response = await fetch(url, options);
      if (!url.endsWith('/token')) return response;
      const body = (await response.json()) as { id_token: string };
      const [header, payload, signature] = body.id_token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'bob' })).toString('base64url');
      return Response.json({ ...body, id_token: `${header}.${forged}.${signature}` });
    });
    const error = await failure(oidcCallback(app, { code, state, subject: 'bob', email: 'bob@example.org' }));
    expect(error.detail?.['check']).toBe('token');
  });

  it("rejects a subject or email that is not the ID token's", async () => {
    newApp();
    const first = await loginAt();
    const subject = await failure(oidcCallback(app, { ...first, subject: 'bob', email: 'alice@example.org' }));
    expect(subject.detail?.['check']).toBe('subject');
    const second = await loginAt();
    const email = await failure(oidcCallback(app, { ...second, subject: 'alice', email: 'bob@example.org' }));
    expect(email.detail?.['check']).toBe('email');
  });
});

// Configuration checks that refuse before any storage is touched: one back end is enough.
describe('OIDC configuration refusals', () => {
  it('refuses plain-http providers that are not on loopback, and missing configuration', async () => {
    const configured = createApp({ dataDir: ':memory:', env: oidcEnv });
    const bare = createApp({ dataDir: ':memory:' });
    try {
      const insecure = await failure(oidcAuthorize(configured, { provider_url: 'http://idp.example.com' }));
      expect(insecure.detail?.['check']).toBe('config');
      const missing = await failure(oidcAuthorize(bare));
      expect(missing.message).toMatch(/provider URL/);
    } finally {
      await Promise.all([configured.close(), bare.close()]);
    }
  });
});
