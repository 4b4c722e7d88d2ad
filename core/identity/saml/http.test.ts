import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverPerTest, type TestServer } from '../../http/test-support.ts';
import { testBackends } from '../../test-support/backends.ts';
import { handoffTtlSeconds } from './acs-handoff.ts';
import { setSamlConfig } from './config.ts';
import { samlLoginRedirect } from './service.ts';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './test/idp.ts';

let idp: TestIdp;
let t: TestServer;
let clock = Date.now();

beforeAll(() => {
  idp = makeTestIdp('idp');
});

const response = (fields: Parameters<typeof buildResponse>[1] = {}) =>
  toBase64(
    signElement(
      buildResponse(new Date(clock), {
        audience: 'http://localhost:80/saml/metadata',
        recipient: 'http://localhost:80/saml/acs',
        destination: 'http://localhost:80/saml/acs',
        ...fields,
      }),
      fields.assertionId ?? '_assert1',
      idp,
    ),
  );
/** The IdP's auto-submitted form: a cross-site POST, which carries no SameSite=Lax (or Strict) cookie. */
const acsPost = (fields: Record<string, string>, accept?: string) =>
  t.server.inject({
    method: 'POST',
    url: '/saml/acs',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://idp.example.test',
      ...(accept === undefined ? {} : { accept }),
    },
    payload: new URLSearchParams(fields).toString(),
  });
const cookieOf = (setCookie: unknown, name: string): string => new RegExp(`${name}=[^;]*`).exec(String(setCookie))?.[0] ?? '';

/** A browser starts an SP-initiated login: its login cookie and the AuthnRequest id the IdP will answer. */
const startLogin = async (returnTo = '/settings') => {
  const res = await t.server.inject({ method: 'GET', url: `/saml/login?return_to=${encodeURIComponent(returnTo)}` });
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  const request = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest') ?? '', 'base64')).toString();
  return { cookie: cookieOf(res.headers['set-cookie'], 'svc_saml_login'), requestId: /ID="([^"]+)"/.exec(request)?.[1] ?? '', location };
};
/** The ACS's 303 target: the browser step, as a path. */
const completionOf = (acs: { statusCode: number; headers: Record<string, unknown> }): string => {
  expect(acs.statusCode).toBe(303);
  const location = String(acs.headers.location);
  expect(location).toMatch(/^\/saml\/complete\?handle=[\w-]{43}$/);
  return location;
};
const complete = (url: string, cookie = '', accept?: string) =>
  t.server.inject({ method: 'GET', url, headers: { cookie, ...(accept === undefined ? {} : { accept }) } });
const sessionOf = async (cookie: string) => (await t.server.inject({ method: 'GET', url: '/auth/session', headers: { cookie } })).json();

describe.each(testBackends)('SAML HTTP routes on $name', (backend) => {
  const server = serverPerTest(backend, { now: () => new Date(clock) });
  /** This test's server, its clock set to now. */
  const serve = async () => {
    clock = Date.now();
    t = await server();
    return t;
  };
  /** The test server's origin is http://localhost:80, so that is where the IdP must address its responses. */
  const start = async (options: { allowIdpInitiated?: boolean } = {}) => {
    await serve();
    await t.app.settings.update({ samlIdpMetadataXml: idpMetadataXml([idp.cert]) });
    await setSamlConfig(t.app, { spBaseUrl: 'http://localhost:80', ...options });
    return t;
  };

  it('serves SP metadata as application/samlmetadata+xml', async () => {
    await start();
    const res = await t.server.inject({ method: 'GET', url: '/saml/metadata' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(res.body).toContain('Location="http://localhost:80/saml/acs"');
  });

  it('lets ops (which have no request) use the listener origin', async () => {
    await serve();
    const res = await t.server.inject({ method: 'POST', url: '/api/ops/identity.samlMetadata', headers: t.auth(), payload: {} });
    expect(res.json().value).toContain('Location="http://localhost:80/saml/acs"');
  });

  it('starts SP-initiated login with a redirect to the IdP and a short-lived HttpOnly Lax login cookie', async () => {
    await start();
    const res = await t.server.inject({ method: 'GET', url: '/saml/login?return_to=/x' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toMatch(/^https:\/\/idp\.example\.test\/sso\?SAMLRequest=/);
    expect(res.headers['set-cookie']).toMatch(/^svc_saml_login=[\w-]{43}; Path=\/saml; HttpOnly; SameSite=Lax; Max-Age=600$/);
  });

  it('completes an SP-initiated login in the browser that started it, in two steps, returning where it began', async () => {
    await start();
    const login = await startLogin('/settings');
    expect(login.location.searchParams.get('RelayState')).toBe('/settings');
    // The IdP may echo any RelayState: the return path is the one stored with the request.
    const acs = await acsPost({ SAMLResponse: response({ inResponseTo: login.requestId }), RelayState: '/elsewhere' });
    expect(acs.headers['set-cookie']).toBeUndefined();
    const res = await complete(completionOf(acs), login.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('url=/settings');
    expect(String(res.headers['set-cookie'])).toContain('svc_saml_login=; Path=/saml; HttpOnly; SameSite=Lax; Max-Age=0');
    const cookie = cookieOf(res.headers['set-cookie'], 'svc_session');
    expect(await sessionOf(cookie)).toMatchObject({ authenticated: true, subject: 'alice@example.org', tier: 'free' });
  });

  it('answers JSON at the browser step when asked', async () => {
    await start();
    const login = await startLogin();
    const acs = await acsPost({ SAMLResponse: response({ inResponseTo: login.requestId }) }, 'application/json');
    const res = await complete(completionOf(acs), login.cookie, 'application/json');
    expect(res.json()).toMatchObject({ subject: 'alice@example.org', email: 'alice@example.org' });
    expect(typeof res.json().session_jwt).toBe('string');
  });

  it('refuses the login-CSRF flow: the attacker’s Response posted from the victim’s browser', async () => {
    await start();
    const victim = cookieOf(
      (await t.server.inject({ method: 'POST', url: '/auth/login', payload: { api_key: t.adminKey } })).headers['set-cookie'],
      'svc_session',
    );
    // The attacker starts a login in his own browser and gets a valid Response for his own account (bob).
    const attacker = await startLogin();
    const bobs = response({ inResponseTo: attacker.requestId, nameId: 'bob@example.org', email: 'bob@example.org' });
    // The victim's browser is made to POST it to the ACS and follows the redirect with its own cookies.
    const forced = await complete(completionOf(await acsPost({ SAMLResponse: bobs })), victim);
    expect(forced.statusCode).toBe(401);
    expect(forced.body).toContain('another browser');
    expect(String(forced.headers['set-cookie'])).not.toContain('svc_session=ey');
    expect(await sessionOf(victim)).toMatchObject({ authenticated: true, tier: 'admin' });
    // The same Response posted again is a replay (and its request id is used up).
    const again = await acsPost({ SAMLResponse: bobs }, 'application/json');
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ check: 'in_response_to' });

    // A victim with a SAML login of their own under way holds a different login cookie: refused as well.
    const own = await startLogin();
    const attacker2 = await startLogin();
    const bobs2 = response({ inResponseTo: attacker2.requestId, nameId: 'bob@example.org', assertionId: '_bob2' });
    const forcedUrl = completionOf(await acsPost({ SAMLResponse: bobs2 }));
    const forced2 = await complete(forcedUrl, `${victim}; ${own.cookie}`, 'application/json');
    expect(forced2.statusCode).toBe(401);
    expect(forced2.json()).toMatchObject({ check: 'browser' });
    // The refused attempt used the handle up: not even the attacker's browser can finish it now.
    expect((await complete(forcedUrl, attacker2.cookie, 'application/json')).json()).toMatchObject({ check: 'handoff' });
  });

  it('does not let a browser complete a login started through the API (no login cookie to match)', async () => {
    await start();
    const { request_id } = await samlLoginRedirect(t.app);
    const acs = await acsPost({ SAMLResponse: response({ inResponseTo: request_id }) });
    const res = await complete(completionOf(acs), '', 'application/json');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ check: 'browser' });
  });

  it('refuses a used handle and an expired one', async () => {
    await start();
    const login = await startLogin();
    const url = completionOf(await acsPost({ SAMLResponse: response({ inResponseTo: login.requestId }) }));
    expect((await complete(url, login.cookie)).statusCode).toBe(200);
    const replayed = await complete(url, login.cookie, 'application/json');
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ check: 'handoff' });

    const slow = await startLogin();
    const later = completionOf(await acsPost({ SAMLResponse: response({ inResponseTo: slow.requestId, assertionId: '_slow' }) }));
    clock += (handoffTtlSeconds + 1) * 1000;
    const expired = await complete(later, slow.cookie, 'application/json');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ check: 'handoff' });
    for (const handle of ['', 'x', '../../etc', 'A'.repeat(43)]) {
      expect((await complete(`/saml/complete?handle=${handle}`, slow.cookie)).statusCode).toBe(401);
    }
    expect((await complete('/saml/complete', slow.cookie)).statusCode).toBe(401);
  });

  it('refuses unsolicited (IdP-initiated) Responses by default; with the opt-in they take the same browser step', async () => {
    await start();
    const refused = await acsPost({ SAMLResponse: response(), RelayState: '/settings' }, 'application/json');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ check: 'in_response_to' });
    expect(refused.json().error).toMatch(/unsolicited/);

    await setSamlConfig(t.app, { allowIdpInitiated: true });
    const res = await complete(completionOf(await acsPost({ SAMLResponse: response({ assertionId: '_a2' }), RelayState: '/settings' })));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('url=/settings');
    expect(String(res.headers['set-cookie'])).not.toContain('svc_saml_login');
    expect(await sessionOf(cookieOf(res.headers['set-cookie'], 'svc_session'))).toMatchObject({ authenticated: true });
    // Never off-site, whatever RelayState the IdP sends.
    const offsite = await complete(
      completionOf(await acsPost({ SAMLResponse: response({ assertionId: '_a3' }), RelayState: '//evil.example/' })),
    );
    expect(offsite.body).toContain('content="0;url=/"');
  });

  it('shows which check failed, with a client status', async () => {
    await start({ allowIdpInitiated: true });
    const res = await acsPost({ SAMLResponse: response({ recipient: 'https://evil.example/acs' }) });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Failed check: <code>recipient</code>');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await acsPost({ RelayState: '/' })).statusCode).toBe(400);
    expect((await acsPost({ SAMLResponse: '%%%' })).statusCode).toBe(400);
  });

  it('caps the anonymous ACS body by the configured maxResponseBytes before reading it', async () => {
    await start({ allowIdpInitiated: true });
    const big = 'A'.repeat(500_000); // above 262144 bytes decoded, as base64
    const refused = await acsPost({ SAMLResponse: big }, 'application/json');
    expect(refused.statusCode).toBe(413);
    expect(refused.json().error).toMatch(/larger than \d+ bytes/);
    await setSamlConfig(t.app, { maxResponseBytes: 1_000_000 });
    const read = await acsPost({ SAMLResponse: big }, 'application/json');
    expect(read.statusCode).toBe(400); // read, then refused by the validator: not XML
  });
});
