import { type Document, type Element, XMLSerializer } from '@xmldom/xmldom';
import { decrypt } from 'xml-encryption';
import { attr, childrenNamed, descendantsNamed, NS } from './dom.ts';
import { failedCheckOf, samlError } from './errors.ts';
import { parseUntrustedXml, type XmlLimits } from './xml-input.ts';

/** Content encryption we accept (XML Encryption 1.1 identifiers) and how the test tool names them. */
const CONTENT: Readonly<Record<string, string>> = {
  'http://www.w3.org/2001/04/xmlenc#aes128-cbc': 'AES-128-CBC',
  'http://www.w3.org/2001/04/xmlenc#aes256-cbc': 'AES-256-CBC',
  'http://www.w3.org/2009/xmlenc11#aes128-gcm': 'AES-128-GCM',
  'http://www.w3.org/2009/xmlenc11#aes256-gcm': 'AES-256-GCM',
};
const OAEP_MGF1P = 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p';
const OAEP_11 = 'http://www.w3.org/2009/xmlenc11#rsa-oaep';
const RSA_15 = 'http://www.w3.org/2001/04/xmlenc#rsa-1_5';
const OAEP_DIGESTS: Readonly<Record<string, string>> = {
  'http://www.w3.org/2000/09/xmldsig#sha1': 'SHA-1',
  'http://www.w3.org/2001/04/xmlenc#sha256': 'SHA-256',
  'http://www.w3.org/2001/04/xmlenc#sha512': 'SHA-512',
};
const MGFS: Readonly<Record<string, string>> = {
  'http://www.w3.org/2009/xmlenc11#mgf1sha1': 'MGF1-SHA1',
  'http://www.w3.org/2009/xmlenc11#mgf1sha224': 'MGF1-SHA224',
  'http://www.w3.org/2009/xmlenc11#mgf1sha256': 'MGF1-SHA256',
  'http://www.w3.org/2009/xmlenc11#mgf1sha384': 'MGF1-SHA384',
  'http://www.w3.org/2009/xmlenc11#mgf1sha512': 'MGF1-SHA512',
};

const refuse = (message: string): never => {
  throw samlError('decryption', message);
};

const methodOf = (element: Element): Element =>
  childrenNamed(element, NS.xenc, 'EncryptionMethod')[0] ?? refuse('an encrypted element has no EncryptionMethod');

/** Names the key transport of one EncryptedKey, refusing anything outside RSA-OAEP with known digests. */
const keyTransportOf = (encryptedKey: Element): string => {
  const method = methodOf(encryptedKey);
  const algorithm = attr(method, 'Algorithm') ?? '';
  if (algorithm === RSA_15) {
    refuse(
      'RSA 1.5 key transport is refused (Bleichenbacher/Marvin padding-oracle attacks; Node refuses it too, CVE-2023-46809): configure the IdP to use RSA-OAEP',
    );
  }
  if (algorithm !== OAEP_MGF1P && algorithm !== OAEP_11)
    refuse(`key transport ${algorithm.slice(0, 100) || '(none)'} is not supported (use RSA-OAEP)`);
  const digestElement = childrenNamed(method, NS.dsig, 'DigestMethod')[0];
  const digestUri = digestElement === undefined ? 'http://www.w3.org/2000/09/xmldsig#sha1' : (attr(digestElement, 'Algorithm') ?? '');
  const digest = OAEP_DIGESTS[digestUri] ?? refuse(`RSA-OAEP digest ${digestUri.slice(0, 100)} is not supported`);
  const mgfElement = childrenNamed(method, NS.xenc11, 'MGF')[0];
  if (mgfElement !== undefined && algorithm === OAEP_MGF1P) refuse('rsa-oaep-mgf1p must not carry an MGF element');
  const mgfUri = mgfElement === undefined ? 'http://www.w3.org/2009/xmlenc11#mgf1sha1' : (attr(mgfElement, 'Algorithm') ?? '');
  const mgf = MGFS[mgfUri] ?? refuse(`RSA-OAEP mask generation ${mgfUri.slice(0, 100)} is not supported`);
  return `RSA-OAEP (${digest}, ${mgf})`;
};

export type DecryptedAssertion = {
  readonly doc: Document;
  /** The decrypted saml:Assertion, parsed under the same size and depth limits as the response. */
  readonly assertion: Element;
  /** Its text: what the assertion's own signature is verified against. */
  readonly xml: string;
  /** For the test tool, e.g. "AES-256-GCM content, RSA-OAEP (SHA-1, MGF1-SHA1) key transport". */
  readonly method: string;
};

/** One message for every cryptographic or plaintext failure, so the ACS is no decryption oracle (see decisions). */
const UNDECRYPTABLE =
  'the encrypted assertion could not be decrypted with the SP decryption key (wrong key, altered or truncated cipher text, or content that is not one well-formed Assertion within the size and depth limits)';

const runDecrypt = (xml: string, keyPem: string): string => {
  let plaintext: string | undefined;
  let failure: unknown;
  // xml-encryption reports through a callback but runs synchronously (node:crypto only).
  decrypt(xml, { key: keyPem, disallowDecryptionWithInsecureAlgorithm: false, warnInsecureAlgorithm: false }, (error, result) => {
    if (error) failure = error;
    else plaintext = result;
  });
  if (plaintext === undefined || plaintext === '') throw samlError('decryption', UNDECRYPTABLE, failure);
  return plaintext;
};

/**
 * Decrypts a saml:EncryptedAssertion with xml-encryption (no hand-written cryptography). The algorithms are
 * checked against our allow-list first, because the library's own switch (`disallowDecryptionWithInsecureAlgorithm`)
 * lumps AES-CBC, which every major IdP uses, together with RSA 1.5 and 3DES.
 */
export const decryptAssertion = (encrypted: Element, keyPem: string | undefined, limits: XmlLimits): DecryptedAssertion => {
  if (keyPem === undefined) {
    refuse('the assertion is encrypted but no SP decryption key is configured (secret samlSpDecryptionKey)');
  }
  const data = childrenNamed(encrypted, NS.xenc, 'EncryptedData');
  if (data.length !== 1) refuse(`an EncryptedAssertion must hold exactly one EncryptedData (found ${data.length})`);
  const contentUri = attr(methodOf(data[0] as Element), 'Algorithm') ?? '';
  const content =
    CONTENT[contentUri] ?? refuse(`content encryption ${contentUri.slice(0, 100) || '(none)'} is not supported (AES-CBC or AES-GCM)`);
  // Every EncryptedKey must be acceptable, whichever one the library ends up using.
  const keys = descendantsNamed(encrypted, NS.xenc, 'EncryptedKey');
  if (keys.length === 0) refuse('the encrypted assertion carries no EncryptedKey');
  const transports = [...new Set(keys.map(keyTransportOf))];
  const xml = runDecrypt(new XMLSerializer().serializeToString(encrypted), keyPem as string).replace(/\r\n?/g, '\n');
  let doc: Document;
  try {
    doc = parseUntrustedXml(xml, limits);
  } catch (error) {
    if (failedCheckOf(error) === 'size') throw error;
    throw samlError('decryption', UNDECRYPTABLE, error);
  }
  const root = doc.documentElement;
  if (root === null || root.namespaceURI !== NS.assertion || root.localName !== 'Assertion') {
    return refuse('the encrypted content is not a saml:Assertion');
  }
  return { doc, assertion: root, xml, method: `${content} content, ${transports.join(' / ')} key transport` };
};
