import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { verifySessionJwt } from '../api-keys/jwt.ts';
import { sessionOrigin } from '../sessions/store.ts';
import { getSession } from '../sso/sessions.ts';
import { oidcAuthorize, oidcCallback } from './service.ts';
import { followLogin, startTestProvider, type TestProvider } from './test/provider.ts';

const redirectUri = 'http://127.0.0.1:9/oidc/callback';
let provider: TestProvider;
let app: App;
let clock = Date.now();

beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [redirectUri] });
});
afterAll(() => provider.close());
afterEach(() => app?.close());

const newApp = (): App => {
  clock = Date.now();
  app = createApp({
    dataDir: ':memory:',
    now: () => new Date(clock),
    env: {
      SVC_OIDC_PROVIDER_URL: provider.issuer,
      SVC_OIDC_CLIENT_ID: provider.clientId,
      SVC_OIDC_CLIENT_SECRET: provider.clientSecret,
      SVC_OIDC_REDIRECT_URI: redirectUri,
    },
  });
  return app;
};

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

describe('OIDC against a real oidc-provider', () => {
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
    const row = app.db.prepare('SELECT nonce, code_verifier, expires_at FROM oidc_pending WHERE state = ?').get(first.state) as {
      code_verifier: string;
      expires_at: string;
    };
    expect(row.code_verifier).toBe(first.code_verifier);
    expect(Date.parse(row.expires_at) - clock).toBe(600_000);
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
    app.db.prepare('UPDATE oidc_pending SET code_verifier = ? WHERE state = ?').run('x'.repeat(64), state);
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

  it('refuses plain-http providers that are not on loopback, and missing configuration', async () => {
    newApp();
    const insecure = await failure(oidcAuthorize(app, { provider_url: 'http://idp.example.com' }));
    expect(insecure.detail?.['check']).toBe('config');
    app.close();
    app = createApp({ dataDir: ':memory:' });
    const missing = await failure(oidcAuthorize(app));
    expect(missing.message).toMatch(/provider URL/);
  });
});
