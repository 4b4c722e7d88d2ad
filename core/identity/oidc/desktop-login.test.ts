import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { desktopOidcLogin } from './desktop-login.ts';
import { followLogin, providerEnv, startTestProvider, type TestProvider } from './test/provider.ts';

let provider: TestProvider | undefined;
let app: App | undefined;
afterEach(async () => {
  await provider?.close();
  await app?.close();
  app = undefined;
});

/** The URLs the "system browser" was asked to open in the current test. */
let opened: string[] = [];
// The "system browser": follows the provider's login and lands on the loopback redirect.
const browser = async (url: string): Promise<void> => {
  opened.push(url);
  const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
  const back = await followLogin(url, redirectUri);
  await fetch(back);
};

describe.each(testBackends)('desktop OIDC sign-in (RFC 8252) on $name', (backend) => {
  /** The app's environment, filled once the test's provider is up (read when the login starts). */
  const oidcEnv: NodeJS.ProcessEnv = {};
  const apps = appPerTest(backend, { env: oidcEnv, openExternal: browser });
  it('opens the system browser, receives the code on 127.0.0.1 and returns the token result', async () => {
    opened = [];
    provider = await startTestProvider({ redirectUris: [], loopbackNativeClient: true });
    Object.assign(oidcEnv, providerEnv(provider));
    const result = await desktopOidcLogin(apps().app, { timeoutMs: 20_000 });
    expect(result).toMatchObject({ subject: 'alice', email: 'alice@example.org', token_type: 'Bearer' });
    expect(result.session_jwt.split('.')).toHaveLength(3);
    expect(opened).toHaveLength(1);
    const sent = new URL(opened[0] ?? '');
    expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
    expect(sent.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oidc\/callback$/);
  });
});

// Refused before any storage is touched: one back end is enough.
describe('desktop OIDC sign-in without a desktop', () => {
  it('is unavailable without a desktop browser (svc serve)', async () => {
    app = createApp({ dataDir: ':memory:', env: {} });
    await expect(desktopOidcLogin(app)).rejects.toThrow(/desktop app/);
  });
});
