import { deflateRawSync } from 'node:zlib';

export type AuthnRequestInput = {
  readonly id: string;
  readonly issueInstant: Date;
  /** The IdP's SingleSignOnService (HTTP-Redirect binding) URL. */
  readonly destination: string;
  readonly acsUrl: string;
  readonly spEntityId: string;
  readonly relayState?: string | undefined;
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
  const url = new URL(input.destination);
  url.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'));
  if (input.relayState !== undefined) url.searchParams.set('RelayState', input.relayState);
  return url.href;
};
