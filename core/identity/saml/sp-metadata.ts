/** What the SP metadata document says about this service. */
export type SpMetadataInput = {
  readonly entityId: string;
  readonly acsUrl: string;
  /** PEM certificate published as the SP signing key, when one is configured. */
  readonly signingCertPem?: string | undefined;
  /** PEM certificate of the SP decryption key; published only when that key is configured and matches. */
  readonly encryptionCertPem?: string | undefined;
  readonly authnRequestsSigned: boolean;
  /** True when the signature policy requires a signed assertion ("assertion" or "both"). */
  readonly wantAssertionsSigned: boolean;
};

const NAME_ID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
];

const escapeXml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** The base64 body of a PEM certificate (no armour, no whitespace), as X509Certificate wants it. */
export const pemBody = (pem: string): string => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');

const keyDescriptor = (use: 'signing' | 'encryption', pem: string | undefined): string =>
  pem === undefined || pem === ''
    ? ''
    : `    <md:KeyDescriptor use="${use}">\n      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pemBody(pem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>\n    </md:KeyDescriptor>\n`;

/**
 * SAML 2.0 SP metadata (valid against saml-schema-metadata-2.0.xsd): entity id, the HTTP-POST ACS, the NameID
 * formats we read, the signing and encryption certificates when configured, and flags that say what the
 * configured policy enforces (AuthnRequestsSigned, WantAssertionsSigned).
 */
export const buildSpMetadata = (input: SpMetadataInput): string =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(input.entityId)}">`,
    `  <md:SPSSODescriptor AuthnRequestsSigned="${input.authnRequestsSigned}" WantAssertionsSigned="${input.wantAssertionsSigned}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">`,
    `${keyDescriptor('signing', input.signingCertPem)}${keyDescriptor('encryption', input.encryptionCertPem)}${NAME_ID_FORMATS.map((format) => `    <md:NameIDFormat>${format}</md:NameIDFormat>`).join('\n')}`,
    `    <md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeXml(input.acsUrl)}" index="0" isDefault="true"/>`,
    '  </md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
