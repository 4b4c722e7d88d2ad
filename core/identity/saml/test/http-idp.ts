import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { buildResponse, idpMetadataXml, makeTestIdp, signElement, type TestIdp, toBase64 } from './idp.ts';

/**
 * A SAML IdP over HTTP for browser tests, on another site than the workbench (`localhost` vs `127.0.0.1`), so
 * its form POST to the ACS is a real cross-site POST. `GET /sso` reads the AuthnRequest (HTTP-Redirect binding)
 * and answers, as the user `loginAs` names, with a signed Response in an auto-submitting form (HTTP-POST
 * binding). `autoPostPage` hosts any form POST, as an attacker's page would.
 */
export type TestSamlIdp = {
  /** e.g. http://localhost:41234 */
  readonly url: string;
  readonly idp: TestIdp;
  /** IdP metadata naming this server's /sso endpoint. */
  readonly metadataXml: string;
  /** The user (NameID and email) the next Response is for. */
  loginAs(user: string): void;
  /** What `GET /sso` posts back for that redirect URL: the ACS and the form fields. */
  answer(ssoRedirectUrl: string): { acsUrl: string; fields: Record<string, string> };
  /** A page on this server that POSTs `fields` to `action` as soon as it loads. */
  autoPostPage(action: string, fields: Record<string, string>): string;
  close(): Promise<void>;
};

const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const formPage = (action: string, fields: Record<string, string>): string =>
  `<!doctype html><html><body><form method="post" action="${escapeHtml(action)}">` +
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('') +
  '<noscript><button>Continue</button></noscript></form><script>document.forms[0].submit()</script></body></html>';

export const startTestSamlIdp = async (): Promise<TestSamlIdp> => {
  const idp = makeTestIdp('e2e-saml-idp');
  const pages = new Map<string, string>();
  let user = 'alice@example.org';
  // Assertion ids must be unique across IdP instances: the workbench's replay cache outlives a test.
  const run = randomBytes(6).toString('hex');
  let responses = 0;

  const answer = (ssoRedirectUrl: string) => {
    const params = new URL(ssoRedirectUrl).searchParams;
    const request = inflateRawSync(Buffer.from(params.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
    const id = /\sID="([^"]+)"/.exec(request)?.[1];
    const acsUrl = /AssertionConsumerServiceURL="([^"]+)"/.exec(request)?.[1];
    if (id === undefined || acsUrl === undefined) throw new Error('not an AuthnRequest');
    responses += 1;
    const assertionId = `_e2e-assertion-${run}-${responses}`;
    const xml = buildResponse(new Date(), {
      responseId: `_e2e-response-${run}-${responses}`,
      assertionId,
      inResponseTo: id,
      // The SP's default entity id: its /saml/metadata URL.
      audience: acsUrl.replace(/\/saml\/acs$/, '/saml/metadata'),
      recipient: acsUrl,
      destination: acsUrl,
      nameId: user,
      email: user,
      sessionIndex: `_e2e-session-${responses}`,
    });
    const relayState = params.get('RelayState');
    const fields = {
      SAMLResponse: toBase64(signElement(xml, assertionId, idp)),
      ...(relayState === null ? {} : { RelayState: relayState }),
    };
    return { acsUrl, fields };
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    try {
      const body =
        url.pathname === '/sso'
          ? (({ acsUrl, fields }) => formPage(acsUrl, fields))(answer(url.href))
          : url.pathname.startsWith('/page/')
            ? pages.get(url.pathname)
            : undefined;
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    } catch (error) {
      res.writeHead(400).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://localhost:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    idp,
    metadataXml: idpMetadataXml([idp.cert], `${base}/sso`),
    loginAs: (next) => {
      user = next;
    },
    answer,
    autoPostPage: (action, fields) => {
      const path = `/page/${pages.size + 1}`;
      pages.set(path, formPage(action, fields));
      return `${base}${path}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
