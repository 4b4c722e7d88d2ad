import { beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { invoke } from '../../ops/dispatch.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { setSamlConfig } from './config.ts';
import { parseIdpMetadata } from './idp-metadata.ts';
import { samlMetadata, samlTestResponse } from './service.ts';
import { encryptAssertionIn, XENC } from './test/encrypt.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './test/idp.ts';
import { xmllintMetadata } from './test/xmllint.ts';

let idp: TestIdp;
let rolledIdp: TestIdp;
let sp: TestIdp;
let federation: TestIdp;

beforeAll(() => {
  idp = makeTestIdp('idp');
  rolledIdp = makeTestIdp('idp-next');
  sp = makeTestIdp('sp-encryption');
  federation = makeTestIdp('metadata-signer');
});
const certBody = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, '');
const signedMetadata = (certs: readonly string[], signer: TestIdp = federation) =>
  signElement(idpMetadataXml(certs), '_metadata1', signer, { placement: 'firstChild' });

describe.each(testBackends)('SAML configuration on $name', (backend) => {
  const t = appPerTest(backend);
  let app: App;
  const newApp = async (): Promise<App> => {
    app = t().app;
    // The responses here are unsolicited (pasted, as from an IdP dashboard): IdP-initiated login is an opt-in.
    await setSamlConfig(app, { spBaseUrl: 'https://sp.example.test', allowIdpInitiated: true });
    return app;
  };
  const call = (name: string, input: unknown) =>
    invoke(name, input, { app, actor: { kind: 'local', id: 'test', tier: 'admin', scopes: [] } });

  describe('SP metadata says what the configuration enforces', () => {
    it('advertises the encryption certificate once the matching decryption key is set, and stays schema-valid', async () => {
      await newApp();
      await app.settings.update({ samlSpEncryptionCert: sp.cert });
      expect(await samlMetadata(app)).not.toContain('use="encryption"'); // no key yet: IdPs must not encrypt to it
      app.settings.setSecret('samlSpDecryptionKey', idp.key);
      expect(await samlMetadata(app)).not.toContain('use="encryption"'); // a key that does not belong to the certificate
      app.settings.setSecret('samlSpDecryptionKey', sp.key);
      const metadata = await samlMetadata(app);
      expect(metadata).toContain(
        `<md:KeyDescriptor use="encryption">\n      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(sp.cert)}`,
      );
      expect(metadata).not.toContain('PRIVATE KEY');
      await expect(xmllintMetadata(metadata)).resolves.toBeUndefined();
      // Pasted into a password field, a PEM loses its line breaks; it is re-wrapped, not refused.
      app.settings.setSecret('samlSpDecryptionKey', sp.key.replace(/\n/g, ''));
      expect(await samlMetadata(app)).toContain('use="encryption"');
    });

    it('says WantAssertionsSigned only when the policy requires a signed assertion', async () => {
      await newApp();
      const want = async (policy: 'response' | 'assertion' | 'either' | 'both') => {
        await setSamlConfig(app, { signaturePolicy: policy });
        return /WantAssertionsSigned="(\w+)"/.exec(await samlMetadata(app))?.[1];
      };
      expect([await want('assertion'), await want('both'), await want('response'), await want('either')]).toEqual([
        'true',
        'true',
        'false',
        'false',
      ]);
    });

    it('reports the encryption state to the admin screen without the key', async () => {
      await newApp();
      await app.settings.update({ samlSpEncryptionCert: sp.cert });
      app.settings.setSecret('samlSpDecryptionKey', sp.key);
      const described = (await call('identity.samlGetConfig', {})) as { sp: { encryption: unknown } };
      expect(described.sp.encryption).toEqual({ advertised: true, problem: null });
      expect(JSON.stringify(described)).not.toContain(certBody(sp.key).slice(20, 60));
    });
  });

  describe('IdP metadata', () => {
    it('trusts every signing certificate listed (key rollover) as one set', async () => {
      await newApp();
      await app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert, rolledIdp.cert]) });
      for (const signer of [idp, rolledIdp]) {
        const response = toBase64(
          signElement(buildResponse(new Date(), { assertionId: `_a-${signer === idp ? 1 : 2}` }), `_a-${signer === idp ? 1 : 2}`, signer),
        );
        expect(await samlTestResponse(app, response)).toMatchObject({ ok: true, subject: 'alice@example.org' });
      }
      const stranger = makeTestIdp('stranger');
      const forged = toBase64(signElement(buildResponse(new Date()), '_assert1', stranger));
      expect(await samlTestResponse(app, forged)).toMatchObject({ ok: false, check: 'certificate' });
    });

    it('refuses to store, and to use, metadata that fails the configured signature check', async () => {
      await newApp();
      await app.settings.update({ samlIdpMetadataSigningCert: federation.cert });
      await expect(call('identity.samlSetConfig', { idp_metadata_xml: idpMetadataXml([idp.cert]) })).rejects.toThrow(/not signed/);
      const stored = await call('identity.samlSetConfig', { idp_metadata_xml: signedMetadata([idp.cert]) });
      expect(stored).toMatchObject({ idp: { trusted_cert_count: 1, error: null } });
      const response = toBase64(signElement(buildResponse(new Date()), '_assert1', idp));
      expect(await samlTestResponse(app, response)).toMatchObject({ ok: true });
      // Stored metadata that no longer verifies (the signing certificate changed) is reported, not used.
      await app.settings.update({ samlIdpMetadataSigningCert: idp.cert });
      expect(await call('identity.samlGetConfig', {})).toMatchObject({
        idp: { trusted_cert_count: 0, error: expect.stringMatching(/signature/) },
      });
      expect(await samlTestResponse(app, response)).toMatchObject({ ok: false, check: 'config' });
    });
  });

  describe('SAML test tool with an encrypted assertion', () => {
    it('decrypts with the configured key and names the decryption step; says why when it cannot', async () => {
      await newApp();
      await app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert]) });
      const encrypted = toBase64(
        await encryptAssertionIn(signElement(buildResponse(new Date()), '_assert1', idp), sp, {
          content: XENC.aes256gcm,
          keyTransport: XENC.rsaOaepMgf1p,
        }),
      );
      expect(await samlTestResponse(app, encrypted)).toMatchObject({ ok: false, check: 'decryption' });
      await app.settings.update({ samlSpEncryptionCert: sp.cert });
      app.settings.setSecret('samlSpDecryptionKey', sp.key);
      expect(await samlTestResponse(app, encrypted)).toEqual({
        ok: true,
        subject: 'alice@example.org',
        email: 'alice@example.org',
        issuer: 'https://idp.example.test/metadata',
        signed_parts: ['assertion'],
        decryption: 'AES-256-GCM content, RSA-OAEP (SHA-1, MGF1-SHA1) key transport',
      });
    });
  });
});

// Parsing and signature checks only, no storage: one run is enough (not per back end).
describe('IdP metadata signature', () => {
  it('verifies the metadata signature when a metadata signing certificate is configured', () => {
    const good = signedMetadata([idp.cert]);
    expect(parseIdpMetadata(good, 1_000_000, federation.cert).signingCertsPem).toHaveLength(1);
    // A certificate swapped in after signing (the attack this setting exists for).
    const swapped = good.replace(certBody(idp.cert), certBody(rolledIdp.cert));
    expect(() => parseIdpMetadata(swapped, 1_000_000, federation.cert)).toThrow(/metadata signature was not accepted.*invalid/);
    expect(() => parseIdpMetadata(signedMetadata([idp.cert], idp), 1_000_000, federation.cert)).toThrow(/not accepted/);
    expect(() => parseIdpMetadata(idpMetadataXml([idp.cert]), 1_000_000, federation.cert)).toThrow(/not signed/);
    // Without a configured metadata certificate, signed and unsigned metadata both load (trust from the source).
    expect(parseIdpMetadata(swapped, 1_000_000).entityId).toBe('https://idp.example.test/metadata');
  });
});
