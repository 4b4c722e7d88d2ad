import { followLogin, startTestProvider, type TestProvider } from '../core/identity/oidc/test/provider.ts';
import { expect, test } from './fixtures.ts';

let provider: TestProvider | undefined;
test.afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

test('login CSRF: a callback URL from the attacker’s login fails in the victim’s browser', async ({ page, workbench }) => {
  provider = await startTestProvider({ redirectUris: [`${workbench.url}/oidc/callback`] });
  await workbench.call('settings.update', {
    values: { oidcProviderUrl: provider.issuer, oidcClientId: provider.clientId },
    secrets: { oidcClientSecret: provider.clientSecret },
  });

  // The attacker, with his own client and cookie jar, starts a login and signs in at the IdP as himself (bob);
  // he stops at the redirect back to the workbench and keeps the callback URL instead of opening it.
  const start = await fetch(`${workbench.url}/oidc/login`, { redirect: 'manual' });
  expect(start.headers.get('set-cookie')).toContain('svc_oidc_login=');
  provider.loginAs('bob');
  const callbackUrl = (await followLogin(String(start.headers.get('location')), `${workbench.url}/oidc/callback`)).href;
  expect(callbackUrl).toContain('code=');

  // The victim is signed in to the workbench as admin; the attacker makes the browser open that URL.
  await workbench.login(page);
  await page.goto(callbackUrl);
  await expect(page.getByRole('alert')).toContainText('another browser');

  // Still the victim's own admin session, not the attacker's free-tier account.
  const session = await page.evaluate(async () => (await fetch('/auth/session')).json());
  expect(session).toMatchObject({ authenticated: true, tier: 'admin' });
  expect(session.subject).not.toBe('bob');
});
