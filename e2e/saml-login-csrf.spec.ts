import { startTestSamlIdp, type TestSamlIdp } from '../core/identity/saml/test/http-idp.ts';
import { expect, test, type Workbench } from './fixtures.ts';

let idp: TestSamlIdp | undefined;
test.afterEach(async () => {
  await idp?.close();
  idp = undefined;
});

/** A SAML IdP on `localhost` (another site than the workbench's 127.0.0.1): its form POST is cross-site. */
const configureIdp = async (workbench: Workbench): Promise<TestSamlIdp> => {
  const started = await startTestSamlIdp();
  await workbench.call('identity.samlSetConfig', { idp_metadata_xml: started.metadataXml, idp_issuer: '' });
  return started;
};

test('SAML: an SP-initiated login completes in the browser that started it, through the cross-site POST', async ({ page, workbench }) => {
  idp = await configureIdp(workbench);
  idp.loginAs('alice@example.org');
  await page.goto(`${workbench.url}/`);
  await page.getByRole('link', { name: 'Sign in with SAML' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(workbench.url);
  const session = await page.evaluate(async () => (await fetch('/auth/session')).json());
  expect(session).toMatchObject({ authenticated: true, subject: 'alice@example.org' });
  // The login cookie was used up.
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain('svc_saml_login');
});

test('SAML login CSRF: the attacker’s valid Response, posted from the victim’s browser, fails', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  idp = await configureIdp(workbench);
  // The attacker, with his own client and cookie jar, starts a login and gets a signed Response for his own
  // account (bob) from the IdP; instead of posting it, he puts it in an auto-submitting form on his page.
  const start = await fetch(`${workbench.url}/saml/login`, { redirect: 'manual' });
  expect(start.headers.get('set-cookie')).toContain('svc_saml_login=');
  idp.loginAs('bob@example.org');
  const { acsUrl, fields } = idp.answer(String(start.headers.get('location')));
  expect(acsUrl).toBe(`${workbench.url}/saml/acs`);
  const attackerPage = idp.autoPostPage(acsUrl, fields);

  // The victim is signed in to the workbench as admin and opens the attacker's page.
  await workbench.login(page);
  await page.goto(attackerPage);
  await expect(page.getByRole('alert')).toContainText('another browser');
  await screenshotTo('saml-login-csrf-refused');

  // Still the victim's own admin session, not the attacker's account.
  await page.goto(`${workbench.url}/`);
  const session = await page.evaluate(async () => (await fetch('/auth/session')).json());
  expect(session).toMatchObject({ authenticated: true, tier: 'admin' });
  expect(session.subject).not.toBe('bob@example.org');
});
