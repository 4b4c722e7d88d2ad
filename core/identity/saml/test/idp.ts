import { SignedXml } from 'xml-crypto';
import { type KeyAndCert, makeSelfSignedCert } from '../../../test-support/self-signed.ts';
import { ALG } from '../signature.ts';

/** Test-only IdP: a fresh RSA key pair with a self-signed certificate, made for each test file. */
export type TestIdp = KeyAndCert;

export const makeTestIdp = (commonName = 'test-idp'): TestIdp => makeSelfSignedCert(commonName);

export type ResponseFields = {
  responseId?: string;
  assertionId?: string;
  issuer?: string;
  destination?: string | null;
  inResponseTo?: string | null;
  audience?: string;
  recipient?: string;
  nameId?: string;
  nameIdFormat?: string;
  email?: string | null;
  sessionIndex?: string;
  issueInstant?: string;
  notBefore?: string;
  notOnOrAfter?: string;
  confirmationNotOnOrAfter?: string;
  statusCode?: string;
  /** Raw XML inserted inside the Response before the Assertion (Extensions etc.). */
  responseExtra?: string;
};

export const SP = {
  entityId: 'https://sp.example.test/saml/metadata',
  acsUrl: 'https://sp.example.test/saml/acs',
  issuer: 'https://idp.example.test/metadata',
};

const optionalAttr = (name: string, value: string | null | undefined): string =>
  value === null || value === undefined ? '' : ` ${name}="${value}"`;

/** A SAML 2.0 Response with one assertion; every field can be overridden to build a bad case. */
export const buildResponse = (now: Date, fields: ResponseFields = {}): string => {
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();
  const f = {
    responseId: '_resp1',
    assertionId: '_assert1',
    issuer: SP.issuer,
    destination: SP.acsUrl,
    inResponseTo: null,
    audience: SP.entityId,
    recipient: SP.acsUrl,
    nameId: 'alice@example.org',
    nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    email: 'alice@example.org',
    sessionIndex: '_session-abc',
    issueInstant: at(0),
    notBefore: at(-60),
    notOnOrAfter: at(300),
    confirmationNotOnOrAfter: at(300),
    statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
    responseExtra: '',
    ...fields,
  };
  const emailStatement =
    f.email === null
      ? ''
      : `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${f.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`;
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.responseId}" Version="2.0" IssueInstant="${f.issueInstant}"${optionalAttr('Destination', f.destination)}${optionalAttr('InResponseTo', f.inResponseTo)}>` +
    `<saml:Issuer>${f.issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${f.statusCode}"/></samlp:Status>` +
    f.responseExtra +
    `<saml:Assertion ID="${f.assertionId}" Version="2.0" IssueInstant="${f.issueInstant}">` +
    `<saml:Issuer>${f.issuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${f.nameIdFormat}">${f.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${f.confirmationNotOnOrAfter}" Recipient="${f.recipient}"${optionalAttr('InResponseTo', f.inResponseTo)}/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore}" NotOnOrAfter="${f.notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${f.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${f.issueInstant}" SessionIndex="${f.sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    emailStatement +
    `</saml:Assertion></samlp:Response>`
  );
};

export type SignOptions = {
  signatureAlgorithm?: string;
  digestAlgorithm?: string;
  /** Reference a different element id than the one the signature sits in. */
  referenceId?: string;
  /** Where the signature goes: after the element's Issuer (SAML messages) or as its first child (metadata). */
  placement?: 'afterIssuer' | 'firstChild';
};

const byId = (id: string) => `//*[@ID='${id}']`;

/** Signs the element with that ID (enveloped, exc-c14n), placing the signature after its Issuer. */
export const signElement = (xml: string, id: string, idp: TestIdp, options: SignOptions = {}): string => {
  const signer = new SignedXml({
    privateKey: idp.key,
    publicCert: idp.cert,
    signatureAlgorithm: options.signatureAlgorithm ?? ALG.rsaSha256,
    canonicalizationAlgorithm: ALG.excC14n,
  });
  signer.addReference({
    xpath: byId(options.referenceId ?? id),
    digestAlgorithm: options.digestAlgorithm ?? ALG.sha256,
    transforms: [ALG.envelopedSignature, ALG.excC14n],
  });
  signer.computeSignature(xml, {
    prefix: 'ds',
    location:
      options.placement === 'firstChild'
        ? { reference: byId(id), action: 'prepend' }
        : { reference: `${byId(id)}/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signer.getSignedXml();
};

export const toBase64 = (xml: string): string => Buffer.from(xml, 'utf8').toString('base64');

/** IdP metadata for the test IdP: its entity id, signing certificate(s) and HTTP-Redirect SSO endpoint. */
export const idpMetadataXml = (certs: readonly string[], ssoUrl = 'https://idp.example.test/sso'): string =>
  `<?xml version="1.0" encoding="UTF-8"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" ID="_metadata1" entityID="${SP.issuer}">` +
  `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
  certs
    .map(
      (cert) =>
        `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${cert.replace(/-----[A-Z ]+-----|\s/g, '')}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`,
    )
    .join('') +
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${ssoUrl}"/>` +
  `</md:IDPSSODescriptor></md:EntityDescriptor>`;
