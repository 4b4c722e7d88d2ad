import { startTestProvider, type TestProvider } from '../core/identity/oidc/test/provider.ts';
import { encryptAssertionIn, XENC } from '../core/identity/saml/test/encrypt.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, toBase64 } from '../core/identity/saml/test/idp.ts';
import { expect, test } from './fixtures.ts';

let provider: TestProvider | undefined;
test.afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

test('signs in through a local OpenID Provider and tests the SSO configuration', async ({ page, workbench, screenshotTo }) => {
  // A real oidc-provider on loopback whose client redirects to this workbench's callback.
  provider = await startTestProvider({ redirectUris: [`${workbench.url}/oidc/callback`] });
  await workbench.call('settings.update', {
    values: { oidcProviderUrl: provider.issuer, oidcClientId: provider.clientId },
    secrets: { oidcClientSecret: provider.clientSecret },
  });
  // SSO users get the free tier unless the admin decides otherwise; this one administers the settings.
  await workbench.call('identity.samlSetConfig', { options: { sessionTier: 'admin' } });

  await page.goto(`${workbench.url}/`);
  await page.getByRole('link', { name: 'Sign in with OpenID Connect' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await screenshotTo('oidc-signed-in');

  await page.getByRole('link', { name: 'Identity Settings', exact: true }).click();
  await expect(page.getByLabel('Provider URL')).toHaveValue(provider.issuer);
  await expect(page.getByLabel('Client ID')).toHaveValue(provider.clientId);
  await expect(page.getByLabel(/Client secret \(write-only, currently set\)/)).toHaveValue('');
  await page.getByRole('button', { name: 'Test discovery' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'answered' })).toContainText(provider.issuer);

  // A pasted SAMLResponse is checked without logging in; the failure names the check and the fix.
  await page.getByLabel('SAMLResponse to test (base64, as posted by the IdP)').fill('bm90IGEgU0FNTCByZXNwb25zZQ==');
  await page.getByRole('button', { name: 'Test SAML response' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Failed check' });
  await expect(alert).toContainText('config');
  await expect(alert).toContainText('What to do');
  await screenshotTo('identity-settings');

  // Configure a SAML IdP by pasting its metadata, then test a response it signed: accepted, nothing consumed.
  const idp = makeTestIdp('e2e-idp');
  await page.getByLabel('IdP metadata XML').fill(idpMetadataXml([idp.cert]));
  // The pasted responses are unsolicited (as from an IdP dashboard): IdP-initiated login is an explicit opt-in.
  await expect(page.getByLabel(/Allow IdP-initiated login/)).not.toBeChecked();
  await page.getByLabel(/Allow IdP-initiated login/).check();
  await page.getByRole('button', { name: 'Save SAML settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'trusted certificate' })).toContainText('1 trusted certificate(s)');
  const signed = signElement(
    buildResponse(new Date(), {
      audience: `${workbench.url}/saml/metadata`,
      recipient: `${workbench.url}/saml/acs`,
      destination: `${workbench.url}/saml/acs`,
    }),
    '_assert1',
    idp,
  );
  await page.getByLabel('SAMLResponse to test (base64, as posted by the IdP)').fill(toBase64(signed));
  await page.getByRole('button', { name: 'Test SAML response' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Valid response' })).toContainText('alice@example.org');
  await screenshotTo('identity-settings-saml');

  // An encrypted assertion (Okta-style AES-256-GCM, RSA-OAEP): refused without a key, then decrypted, and the
  // test tool names the decryption step.
  const sp = makeTestIdp('e2e-sp-encryption');
  const encrypted = toBase64(await encryptAssertionIn(signed, sp, { content: XENC.aes256gcm, keyTransport: XENC.rsaOaepMgf1p }));
  await page.getByLabel('SAMLResponse to test (base64, as posted by the IdP)').fill(encrypted);
  await page.getByRole('button', { name: 'Test SAML response' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed check' })).toContainText('decryption');
  await workbench.call('settings.update', { values: { samlSpEncryptionCert: sp.cert }, secrets: { samlSpDecryptionKey: sp.key } });
  await page.reload();
  await expect(page.getByText('key set; certificate in the SP metadata')).toBeVisible();
  await page.getByLabel('SAMLResponse to test (base64, as posted by the IdP)').fill(encrypted);
  await page.getByRole('button', { name: 'Test SAML response' }).click();
  const steps = page.getByRole('list', { name: 'Checks passed' });
  await expect(steps).toContainText('Decryption: AES-256-GCM content, RSA-OAEP (SHA-1, MGF1-SHA1) key transport');
  await expect(steps).toContainText('Signed: assertion');
  await screenshotTo('identity-settings-saml-encrypted');
});
