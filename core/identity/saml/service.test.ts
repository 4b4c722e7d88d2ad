import { verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { verifySessionJwt } from '../api-keys/jwt.ts';
import { sessionOrigin } from '../sessions/store.ts';
import { getSession } from '../sso/sessions.ts';
import { setSamlConfig } from './config.ts';
import { failedCheckOf } from './errors.ts';
import { samlAcs, samlLoginRedirect, samlMetadata, samlTestResponse } from './service.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './test/idp.ts';
import { xmllintMetadata } from './test/xmllint.ts';

let idp: TestIdp;
let app: App;
let server: Server | undefined;

beforeAll(() => {
  idp = makeTestIdp('idp');
});
afterEach(() => {
  server?.close();
  server = undefined;
});

const signed = (fields: Parameters<typeof buildResponse>[1] = {}) =>
  toBase64(signElement(buildResponse(new Date(), fields), fields?.assertionId ?? '_assert1', idp));

const xmllint = xmllintMetadata;

describe.each(testBackends)('SAML service on $name', (backend) => {
  const t = appPerTest(backend);
  const configuredApp = async (metadata: { xml?: string; url?: string } = { xml: idpMetadataXml([idp.cert]) }): Promise<App> => {
    app = t().app;
    await app.settings.update({ samlIdpMetadataXml: metadata.xml ?? '', samlIdpMetadataUrl: metadata.url ?? '' });
    // Most responses here are unsolicited (spec saml_acs with a bare response): IdP-initiated login is an opt-in.
    await setSamlConfig(app, { spBaseUrl: 'https://sp.example.test', allowIdpInitiated: true });
    return app;
  };

  describe('SP metadata', () => {
    it('is valid against the OASIS SAML 2.0 metadata schema (xmllint), with and without a signing certificate', async () => {
      await configuredApp();
      const plain = await samlMetadata(app);
      expect(plain).toContain('entityID="https://sp.example.test/saml/metadata"');
      expect(plain).toContain('Location="https://sp.example.test/saml/acs"');
      expect(plain).toContain('WantAssertionsSigned="true"');
      expect(plain).toContain('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent');
      await expect(xmllint(plain)).resolves.toBeUndefined();
      await setSamlConfig(app, { spSigningCertPem: idp.cert });
      await app.settings.update({ samlSpEntityId: 'urn:example:workbench' });
      const withCert = await samlMetadata(app);
      expect(withCert).toContain('<md:KeyDescriptor use="signing">');
      expect(withCert).toContain('entityID="urn:example:workbench"');
      await expect(xmllint(withCert)).resolves.toBeUndefined();
    });

    it('uses the listener origin when no base URL is configured', async () => {
      app = t().app;
      expect(await samlMetadata(app, { origin: 'http://127.0.0.1:4321' })).toContain('Location="http://127.0.0.1:4321/saml/acs"');
    });

    it('xmllint really rejects invalid metadata (the check is not vacuous)', async () => {
      await expect(xmllint('<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"/>')).rejects.toThrow(/not valid/);
    });
  });

  describe('samlAcs', () => {
    it('validates against the IdP metadata, starts an SSO session keyed by SessionIndex and issues a session JWT', async () => {
      await configuredApp();
      const result = await samlAcs(app, signed());
      expect(result).toMatchObject({ subject: 'alice@example.org', email: 'alice@example.org' });
      const actor = await verifySessionJwt(app, result.session_jwt);
      expect(actor).toMatchObject({ kind: 'session', subject: 'alice@example.org', tier: 'free' });
      expect(await getSession(app, (await sessionOrigin(app, actor.id)) ?? '')).toMatchObject({
        idp_session_id: '_session-abc',
        subject: 'alice@example.org',
      });
    });

    it('uses the configured session tier', async () => {
      await configuredApp();
      await setSamlConfig(app, { sessionTier: 'api' });
      const actor = await verifySessionJwt(app, (await samlAcs(app, signed())).session_jwt);
      expect(actor.tier).toBe('api');
    });

    it('raises SFIdentityError naming the check for a bad response', async () => {
      await configuredApp();
      const error = await samlAcs(app, signed({ audience: 'https://other.example' })).catch((e: unknown) => e);
      expect(failedCheckOf(error)).toBe('audience');
    });

    it('refuses to run without IdP configuration', async () => {
      app = t().app;
      const error = await samlAcs(app, signed()).catch((e: unknown) => e);
      expect(failedCheckOf(error)).toBe('config');
    });

    it('loads IdP metadata from a URL with a cache, a size cap and a timeout', async () => {
      let hits = 0;
      let body = idpMetadataXml([idp.cert]);
      let delayMs = 0;
      server = createServer((_req, res) => {
        hits += 1;
        setTimeout(() => res.end(body), delayMs);
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metadata`;
      await configuredApp({ url });
      await samlAcs(app, signed());
      await samlAcs(app, signed({ assertionId: '_assert2' }));
      expect(hits).toBe(1);

      // The cache is per URL: other URLs of the same server are fetched anew.
      await configuredApp({ url: `${url}?large` });
      body = `<x>${'a'.repeat(5000)}</x>`;
      await setSamlConfig(app, { metadataMaxBytes: 4096 });
      expect(((await samlAcs(app, signed({ assertionId: '_assert3' })).catch((e: unknown) => e)) as Error).message).toMatch(
        /larger than 4096/,
      );

      await configuredApp({ url: `${url}?slow` });
      delayMs = 500;
      await setSamlConfig(app, { metadataTimeoutMs: 100 });
      expect(((await samlAcs(app, signed({ assertionId: '_assert4' })).catch((e: unknown) => e)) as Error).message).toMatch(/timed out/);
    });
  });

  describe('SP-initiated login and the test tool', () => {
    it('sends an AuthnRequest by redirect and accepts the answer to it once', async () => {
      await configuredApp();
      const { url, request_id } = await samlLoginRedirect(app, { relayState: '/settings' });
      const redirect = new URL(url);
      expect(redirect.origin + redirect.pathname).toBe('https://idp.example.test/sso');
      expect(redirect.searchParams.get('RelayState')).toBe('/settings');
      const request = inflateRawSync(Buffer.from(redirect.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
      expect(request).toContain(`ID="${request_id}"`);
      expect(request).toContain('AssertionConsumerServiceURL="https://sp.example.test/saml/acs"');
      await samlAcs(app, signed({ inResponseTo: request_id }));
      const replayed = await samlAcs(app, signed({ inResponseTo: request_id, assertionId: '_other' })).catch((e: unknown) => e);
      expect(failedCheckOf(replayed)).toBe('in_response_to');
    });

    it('refuses unsolicited responses unless IdP-initiated login is enabled (off by default)', async () => {
      app = t().app;
      await app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert]) });
      await setSamlConfig(app, { spBaseUrl: 'https://sp.example.test' });
      const refused = await samlAcs(app, signed()).catch((e: unknown) => e);
      expect(failedCheckOf(refused)).toBe('in_response_to');
      expect((refused as Error).message).toMatch(/unsolicited/);
      const { request_id } = await samlLoginRedirect(app);
      expect((await samlAcs(app, signed({ inResponseTo: request_id, assertionId: '_solicited' }))).subject).toBe('alice@example.org');
      await setSamlConfig(app, { allowIdpInitiated: true });
      expect((await samlAcs(app, signed())).subject).toBe('alice@example.org');
    });

    it('never completes through the API a login a browser started (only that browser may, at /saml/complete)', async () => {
      await configuredApp();
      const { request_id } = await samlLoginRedirect(app, { browserBinding: 'a'.repeat(64) });
      const refused = await samlAcs(app, signed({ inResponseTo: request_id })).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'UNAUTHENTICATED', detail: { check: 'browser' } });
    });

    it('signs the AuthnRequest redirect when configured, and says so in the metadata', async () => {
      await configuredApp();
      const sp = makeTestIdp('sp');
      await setSamlConfig(app, { authnRequestsSigned: true, spSigningCertPem: sp.cert });
      await expect(samlLoginRedirect(app)).rejects.toThrow(/no SP signing key/);
      app.settings.setSecret('samlSpSigningKey', sp.key);
      const { url } = await samlLoginRedirect(app, { relayState: '/' });
      const query = url.slice(url.indexOf('?') + 1);
      const [signed = '', signature = ''] = query.split('&Signature=');
      expect(signed).toContain('&SigAlg=http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256');
      expect(verify('sha256', Buffer.from(signed), sp.cert, Buffer.from(decodeURIComponent(signature), 'base64'))).toBe(true);
      expect(await samlMetadata(app)).toContain('AuthnRequestsSigned="true"');
      await expect(xmllint(await samlMetadata(app))).resolves.toBeUndefined();
    });

    it('reports which check failed without consuming anything', async () => {
      await configuredApp();
      expect(await samlTestResponse(app, signed({ recipient: 'https://evil.example/acs' }))).toMatchObject({
        ok: false,
        check: 'recipient',
      });
      const good = signed();
      expect(await samlTestResponse(app, good)).toMatchObject({ ok: true, subject: 'alice@example.org', signed_parts: ['assertion'] });
      expect((await samlAcs(app, good)).subject).toBe('alice@example.org');
    });
  });
});
