import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { startLoopbackRedirect, type LoopbackRedirect } from './loopback.ts';
import { oidcAuthorize, oidcCallback } from './service.ts';
import { followLogin, startTestProvider, type TestProvider } from './test/provider.ts';

let loopback: LoopbackRedirect | undefined;
let provider: TestProvider | undefined;
afterEach(async () => {
  await loopback?.close();
  await provider?.close();
});

describe.each(testBackends)('RFC 8252 loopback login on $name', (backend) => {
  /** The app's environment; the client secret is read when the code is exchanged, after the provider is up. */
  const oidcEnv: NodeJS.ProcessEnv = {};
  const apps = appPerTest(backend, { env: oidcEnv });
  it('completes a desktop login: system browser to provider, back to 127.0.0.1, code exchanged', async () => {
    loopback = await startLoopbackRedirect();
    expect(loopback.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oidc\/callback$/);
    provider = await startTestProvider({ redirectUris: [loopback.redirectUri] });
    oidcEnv['SVC_OIDC_CLIENT_SECRET'] = provider.clientSecret;
    const { app } = apps();
    const request = await oidcAuthorize(app, {
      provider_url: provider.issuer,
      client_id: provider.clientId,
      redirect_uri: loopback.redirectUri,
    });
    const waiting = loopback.waitForCode(request.state);
    // What the system browser does: follow the provider's redirects, then load the loopback page.
    const back = await followLogin(request.authorization_url, loopback.redirectUri);
    const page = await fetch(back);
    expect(await page.text()).toContain('Signed in');
    const { code, state } = await waiting;
    const result = await oidcCallback(app, { code, state, subject: 'alice', email: 'alice@example.org' });
    expect(result.subject).toBe('alice');
  });
});

// The listener alone, no storage: one run is enough.
describe('RFC 8252 loopback redirect', () => {
  it('ignores requests with an unknown state and keeps waiting', async () => {
    loopback = await startLoopbackRedirect();
    const waiting = loopback.waitForCode('expected-state');
    const stray = await fetch(`${loopback.redirectUri}?code=x&state=other`);
    expect(stray.status).toBe(400);
    await fetch(`${loopback.redirectUri}?code=the-code&state=expected-state`);
    await expect(waiting).resolves.toEqual({ code: 'the-code', state: 'expected-state' });
  });

  it('rejects on a provider error and on timeout', async () => {
    loopback = await startLoopbackRedirect({ timeoutMs: 200 });
    const refused = expect(loopback.waitForCode('s1')).rejects.toThrow(/access_denied/);
    await fetch(`${loopback.redirectUri}?error=access_denied&state=s1`);
    await refused;
    await expect(loopback.waitForCode('s2')).rejects.toThrow(/in time/);
  });
});
