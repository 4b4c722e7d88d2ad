import { encrypt, type EncryptOptions } from 'xml-encryption';
import type { TestIdp } from './idp.ts';

/** XML Encryption identifiers as IdPs write them. */
export const XENC = {
  aes128cbc: 'http://www.w3.org/2001/04/xmlenc#aes128-cbc',
  aes256cbc: 'http://www.w3.org/2001/04/xmlenc#aes256-cbc',
  aes128gcm: 'http://www.w3.org/2009/xmlenc11#aes128-gcm',
  aes256gcm: 'http://www.w3.org/2009/xmlenc11#aes256-gcm',
  tripledes: 'http://www.w3.org/2001/04/xmlenc#tripledes-cbc',
  rsaOaepMgf1p: 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
  rsaOaep11: 'http://www.w3.org/2009/xmlenc11#rsa-oaep',
  rsa15: 'http://www.w3.org/2001/04/xmlenc#rsa-1_5',
} as const;

/** How an IdP encrypts: content cipher, key transport and its OAEP digest / MGF1 digest, key placement. */
export type EncryptionShape = {
  readonly content: string;
  readonly keyTransport: string;
  readonly digest?: 'sha1' | 'sha256';
  /** MGF1 digest, xenc11#rsa-oaep only (written as an xenc11:MGF element). */
  readonly mgf?: 'sha1' | 'sha256';
  /** EncryptedKey as a peer of EncryptedData, found by a RetrievalMethod (OpenSAML's PEER placement). */
  readonly peerKey?: boolean;
};

const ASSERTION_NS = 'xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';

/**
 * The encrypt side of xml-encryption, promisified. The options go beyond what @types/xml-encryption knows: the
 * OAEP digest and MGF1 fields (extra properties of a variable pass), and algorithms its unions leave out (e.g.
 * xenc11#rsa-oaep), which the library itself supports.
 */
export const encryptXml = (plaintext: string, recipient: TestIdp, shape: EncryptionShape): Promise<string> =>
  new Promise((resolve, reject) => {
    const options = {
      rsa_pub: recipient.cert,
      pem: recipient.cert,
      encryptionAlgorithm: shape.content as EncryptOptions['encryptionAlgorithm'],
      keyEncryptionAlgorithm: shape.keyTransport as EncryptOptions['keyEncryptionAlgorithm'],
      keyEncryptionDigest: shape.digest ?? 'sha1',
      ...(shape.mgf === undefined ? {} : { keyEncryptionMgf: shape.mgf }),
      disallowEncryptionWithInsecureAlgorithm: false,
      warnInsecureAlgorithm: false,
    };
    encrypt(plaintext, options, (error, result) => (error ? reject(error) : resolve(result)));
  });

/** Moves the EncryptedKey out of KeyInfo to beside EncryptedData and points at it with a RetrievalMethod. */
const placeKeyAsPeer = (encryptedData: string): { data: string; peer: string } => {
  const keyInfo =
    /<KeyInfo xmlns="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#">\s*(<e:EncryptedKey[\s\S]*<\/e:EncryptedKey>)\s*<\/KeyInfo>/.exec(
      encryptedData,
    );
  if (keyInfo === null) throw new Error('xml-encryption output has no inline EncryptedKey');
  const peer = (keyInfo[1] as string).replace('<e:EncryptedKey ', '<e:EncryptedKey Id="_ek1" xmlns="http://www.w3.org/2000/09/xmldsig#" ');
  const pointer =
    '<ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:RetrievalMethod Type="http://www.w3.org/2001/04/xmlenc#EncryptedKey" URI="#_ek1"/></ds:KeyInfo>';
  return { data: encryptedData.replace(keyInfo[0], pointer), peer };
};

/** The response's top-level saml:Assertion (as built by buildResponse, signed or not). */
export const topLevelAssertionXml = (responseXml: string): string => {
  const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(responseXml)?.[0];
  if (assertion === undefined) throw new Error('no assertion in the response');
  return assertion;
};

/**
 * Replaces the response's assertion with an EncryptedAssertion for `recipient` (the SP), as an IdP does after
 * signing the assertion: the plaintext is the assertion element with its namespace declared on itself.
 */
export const encryptAssertionIn = async (responseXml: string, recipient: TestIdp, shape: EncryptionShape): Promise<string> => {
  const assertion = topLevelAssertionXml(responseXml);
  const standalone = assertion.replace('<saml:Assertion ', `<saml:Assertion ${ASSERTION_NS} `);
  const encrypted = (await encryptXml(standalone, recipient, shape)).trim();
  const { data, peer } = shape.peerKey === true ? placeKeyAsPeer(encrypted) : { data: encrypted, peer: '' };
  return responseXml.replace(assertion, `<saml:EncryptedAssertion>${data}${peer}</saml:EncryptedAssertion>`);
};
