import { sign } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';

const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';

export type AuthnRequestInput = {
  readonly id: string;
  readonly issueInstant: Date;
  /** The IdP's SingleSignOnService (HTTP-Redirect binding) URL. */
  readonly destination: string;
  readonly acsUrl: string;
  readonly spEntityId: string;
  readonly relayState?: string | undefined;
  /** SP private key (PEM): when given, the query is signed (SAML bindings 3.4.4.1, RSA-SHA256). */
  readonly signingKeyPem?: string | undefined;
};

const escapeXml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The redirect URL that carries an AuthnRequest to the IdP (SAML bindings 3.4: DEFLATE, base64, URL-encode).
 * The request asks for the HTTP-POST binding back to our ACS; its ID is the InResponseTo we will expect.
 */
export const authnRequestRedirectUrl = (input: AuthnRequestInput): string => {
  const xml =
    `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${escapeXml(input.id)}" Version="2.0" IssueInstant="${input.issueInstant.toISOString()}"` +
    ` Destination="${escapeXml(input.destination)}" AssertionConsumerServiceURL="${escapeXml(input.acsUrl)}"` +
    ` ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${escapeXml(input.spEntityId)}</saml:Issuer>` +
    `<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/>` +
    `</samlp:AuthnRequest>`;
  // Built by hand: a redirect signature covers these exact bytes, in this order.
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`;
  if (input.relayState !== undefined) query += `&RelayState=${encodeURIComponent(input.relayState)}`;
  if (input.signingKeyPem !== undefined) {
    query += `&SigAlg=${encodeURIComponent(RSA_SHA256)}`;
    const signature = sign('sha256', Buffer.from(query, 'utf8'), input.signingKeyPem).toString('base64');
    query += `&Signature=${encodeURIComponent(signature)}`;
  }
  return `${input.destination}${input.destination.includes('?') ? '&' : '?'}${query}`;
};
