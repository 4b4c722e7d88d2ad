/** What to do about each failed SAML check: the message says what failed, this says how to fix it. */
export const samlHints: Record<string, string> = {
  config: 'Add the IdP metadata (URL or XML) so the workbench knows which certificates and issuer to trust.',
  size: 'The response is larger than the configured maximum; check the IdP sends one assertion, or raise the limit.',
  encoding: 'Paste the SAMLResponse form value exactly as sent (base64, UTF-8 XML).',
  xml: 'The response is not well-formed XML, has a DTD or several roots; it was probably altered on the way.',
  structure: 'Send exactly one Assertion (or EncryptedAssertion) per Response; extra or duplicated assertions are refused.',
  decryption:
    'Set the SP decryption key and encryption certificate (Settings), give the IdP the SP metadata, and use RSA-OAEP with AES-CBC or AES-GCM.',
  status: 'The IdP refused the login; look at its logs for the reason.',
  signature: 'Check the signature policy matches what the IdP signs (response, assertion, or both).',
  algorithm: 'Configure the IdP to sign with RSA-SHA256 or stronger, or allow SHA-1 explicitly.',
  certificate: 'The signing certificate is not trusted: refresh the IdP metadata after a certificate rollover.',
  issuer: 'Set the expected issuer to the IdP entity id shown in its metadata.',
  audience: 'Set the audience (SP entity id) in the IdP to the Entity ID shown here.',
  destination: 'Set the IdP ACS URL to the ACS URL shown here.',
  recipient: 'Set the IdP ACS URL to the ACS URL shown here.',
  time: 'Check the clocks of the IdP and this machine, or raise the allowed clock skew.',
  in_response_to: 'Start the login from the workbench again (requests expire), or allow IdP-initiated login.',
  replay: 'This response was already used; sign in again at the IdP.',
  subject: 'Make the IdP send a NameID and a bearer subject confirmation.',
  authn_statement: 'The assertion must record the login (AuthnStatement); configure the IdP for the Web Browser SSO profile.',
};
