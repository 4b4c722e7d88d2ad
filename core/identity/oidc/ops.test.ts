import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoke } from '../../ops/dispatch.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import type { OIDCAuthRequest } from './service.ts';
import { followLogin, startTestProvider, type TestProvider } from './test/provider.ts';

const actor = { kind: 'local', id: 'test', tier: 'admin', scopes: [] } as const;
const redirectUri = 'http://127.0.0.1:9/oidc/callback';
let provider: TestProvider;
/** The apps' environment: filled once the provider is up, before any test makes its app. */
const oidcEnv: NodeJS.ProcessEnv = {};
beforeAll(async () => {
  provider = await startTestProvider({ redirectUris: [redirectUri] });
  oidcEnv['SVC_OIDC_CLIENT_SECRET'] = provider.clientSecret;
});
afterAll(() => provider.close());

describe.each(testBackends)('OIDC ops on $name', (backend) => {
  const apps = appPerTest(backend, { env: oidcEnv });
  it('tests discovery, then authorizes and completes a login through the ops table', async () => {
    const { app } = apps();
    const call = (name: string, input: unknown) => invoke(name, input, { app, actor });
    expect(await call('identity.oidcTestDiscovery', { provider_url: provider.issuer })).toMatchObject({
      ok: true,
      issuer: provider.issuer,
      pkce_s256: true,
      client_secret_basic: true,
    });
    expect(await call('identity.oidcTestDiscovery', { provider_url: 'http://127.0.0.1:9/' })).toMatchObject({ ok: false });
    const request = (await call('identity.oidcAuthorize', {
      provider_url: provider.issuer,
      client_id: provider.clientId,
      redirect_uri: redirectUri,
    })) as OIDCAuthRequest;
    expect(request.scope).toBe('openid email profile');
    const back = await followLogin(request.authorization_url, redirectUri);
    const result = await call('identity.oidcCallback', {
      code: back.searchParams.get('code'),
      state: back.searchParams.get('state'),
      subject: 'alice',
      email: 'alice@example.org',
    });
    expect(result).toMatchObject({ subject: 'alice', token_type: 'Bearer' });
  });
});
