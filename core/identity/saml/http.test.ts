import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import { setSamlConfig } from './config.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './test/idp.ts';

let idp: TestIdp;
let t: TestServer;

beforeAll(() => {
  idp = makeTestIdp('idp');
});
afterEach(() => t?.close());

/** The test server's origin is http://localhost:80, so that is where the IdP must address its responses. */
const start = async () => {
  t = await createTestServer();
  t.app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert]) });
  setSamlConfig(t.app, { spBaseUrl: 'http://localhost:80' });
  return t;
};
const response = (fields: Parameters<typeof buildResponse>[1] = {}) =>
  toBase64(
    signElement(
      buildResponse(new Date(), {
        audience: 'http://localhost:80/saml/metadata',
        recipient: 'http://localhost:80/saml/acs',
        destination: 'http://localhost:80/saml/acs',
        ...fields,
      }),
      fields.assertionId ?? '_assert1',
      idp,
    ),
  );
const form = (fields: Record<string, string>) => ({
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'https://idp.example.test',
  payload: new URLSearchParams(fields).toString(),
});

describe('SAML HTTP routes', () => {
  it('serves SP metadata as application/samlmetadata+xml', async () => {
    await start();
    const res = await t.server.inject({ method: 'GET', url: '/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain('Location="http://localhost:80/saml/acs"');
  });

  it('lets ops (which have no request) use the listener origin', async () => {
    t = await createTestServer();
    const res = await t.server.inject({ method: 'POST', url: '/api/ops/identity.samlMetadata', headers: t.auth(), payload: {} });
    expect(res.json().value).toContain('Location="http://localhost:80/saml/acs"');
  });

  it('accepts a cross-site form POST at the ACS and starts a web session', async () => {
    await start();
    const { payload, ...headers } = form({ SAMLResponse: response(), RelayState: '/settings' });
    const res = await t.server.inject({ method: 'POST', url: '/saml/acs', headers, payload });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('url=/settings');
    const cookie = String(res.headers['set-cookie']).split(';')[0] ?? '';
    expect(cookie).toMatch(/^svc_session=/);
    const session = await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ authenticated: true });
  });

  it('answers JSON when asked and never redirects off-site', async () => {
    await start();
    const { payload, ...headers } = form({ SAMLResponse: response(), RelayState: '//evil.example/' });
    const res = await t.server.inject({ method: 'POST', url: '/saml/acs', headers: { ...headers, accept: 'application/json' }, payload });
    expect(res.json()).toMatchObject({ subject: 'alice@example.org', email: 'alice@example.org' });
    expect(typeof res.json().session_jwt).toBe('string');
    const html = await t.server.inject({
      method: 'POST',
      url: '/saml/acs',
      ...splitForm({ SAMLResponse: response({ assertionId: '_a2' }), RelayState: '//evil.example/' }),
    });
    expect(html.body).toContain('content="0;url=/"');
  });

  it('shows which check failed, with a client status', async () => {
    await start();
    const { payload, ...headers } = form({ SAMLResponse: response({ recipient: 'https://evil.example/acs' }) });
    const res = await t.server.inject({ method: 'POST', url: '/saml/acs', headers, payload });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Failed check: <code>recipient</code>');
    expect(res.headers['set-cookie']).toBeUndefined();
    const missing = await t.server.inject({ method: 'POST', url: '/saml/acs', ...splitForm({ RelayState: '/' }) });
    expect(missing.statusCode).toBe(400);
    const garbage = await t.server.inject({ method: 'POST', url: '/saml/acs', ...splitForm({ SAMLResponse: '%%%' }) });
    expect(garbage.statusCode).toBe(400);
  });

  it('starts SP-initiated login with a redirect to the IdP', async () => {
    await start();
    const res = await t.server.inject({ method: 'GET', url: '/saml/login?return_to=/x' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/idp\.example\.test\/sso\?SAMLRequest=/);
  });
});

const splitForm = (fields: Record<string, string>) => {
  const { payload, ...headers } = form(fields);
  return { headers, payload };
};
