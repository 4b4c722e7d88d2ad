import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { attr, childrenNamed, descendantsNamed, NS } from './dom.ts';
import { samlError } from './errors.ts';

export const ALG = {
  rsaSha1: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
  rsaSha256: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  rsaSha256Mgf1: 'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
  rsaSha512: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  sha1: 'http://www.w3.org/2000/09/xmldsig#sha1',
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  sha512: 'http://www.w3.org/2001/04/xmlenc#sha512',
  envelopedSignature: 'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
  excC14n: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  excC14nWithComments: 'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
  c14n: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  c14nWithComments: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments',
} as const;

export type AllowedAlgorithms = {
  readonly signature: ReadonlySet<string>;
  readonly digest: ReadonlySet<string>;
};

/** SHA-256 and up; SHA-1 only when explicitly allowed. HMAC is never accepted (key confusion). */
export const allowedAlgorithms = (allowSha1: boolean): AllowedAlgorithms => ({
  signature: new Set([ALG.rsaSha256, ALG.rsaSha256Mgf1, ALG.rsaSha512, ...(allowSha1 ? [ALG.rsaSha1] : [])]),
  digest: new Set([ALG.sha256, ALG.sha512, ...(allowSha1 ? [ALG.sha1] : [])]),
});

const allowedTransforms: ReadonlySet<string> = new Set([
  ALG.envelopedSignature,
  ALG.excC14n,
  ALG.excC14nWithComments,
  ALG.c14n,
  ALG.c14nWithComments,
]);

const algorithmOf = (parent: Element, localName: string): string | undefined => {
  const [child] = childrenNamed(parent, NS.dsig, localName);
  return child === undefined ? undefined : attr(child, 'Algorithm');
};

/** Shape and algorithm checks on the unverified SignedInfo, before any cryptography runs. */
const checkSignedInfo = (signature: Element, ownerId: string, what: string, algorithms: AllowedAlgorithms): void => {
  const [signedInfo] = childrenNamed(signature, NS.dsig, 'SignedInfo');
  if (signedInfo === undefined) throw samlError('signature', `the ${what} signature has no SignedInfo`);
  const signatureMethod = algorithmOf(signedInfo, 'SignatureMethod') ?? '';
  if (!algorithms.signature.has(signatureMethod)) {
    throw samlError('algorithm', `the ${what} signature uses ${signatureMethod || 'no'} signature algorithm, which is not allowed`);
  }
  const references = childrenNamed(signedInfo, NS.dsig, 'Reference');
  if (references.length !== 1) {
    throw samlError('signature', `the ${what} signature must have exactly one Reference (found ${references.length})`);
  }
  const [reference] = references as [Element];
  if (reference.getAttribute('URI') !== `#${ownerId}`) {
    throw samlError('signature', `the ${what} signature does not reference the element that carries it`);
  }
  const digestMethod = algorithmOf(reference, 'DigestMethod') ?? '';
  if (!algorithms.digest.has(digestMethod)) {
    throw samlError('algorithm', `the ${what} signature uses ${digestMethod || 'no'} digest algorithm, which is not allowed`);
  }
  const transforms = descendantsNamed(reference, NS.dsig, 'Transform');
  if (transforms.length > 2 || transforms.some((t) => !allowedTransforms.has(attr(t, 'Algorithm') ?? ''))) {
    throw samlError('signature', `the ${what} signature uses transforms that are not allowed`);
  }
};

/** xmldom's Element is the DOM Node xml-crypto walks; its types are declared apart from lib.dom's. */
const isDomNode = (node: unknown): node is Node =>
  typeof node === 'object' && node !== null && typeof Reflect.get(node, 'nodeType') === 'number';

const verifyWith = (fullXml: string, signature: Element, key: string): string[] | undefined => {
  const signed = new SignedXml({ publicCert: key, getCertFromKeyInfo: () => null });
  if (!isDomNode(signature)) throw samlError('signature', 'the signature element is not a DOM node');
  signed.loadSignature(signature);
  try {
    return signed.checkSignature(fullXml) ? signed.getSignedReferences() : undefined;
  } catch {
    return undefined;
  }
};

const keyInfoCertificates = (signature: Element): string[] =>
  descendantsNamed(signature, NS.dsig, 'X509Certificate').map((cert) => {
    const body = (cert.textContent ?? '').replace(/\s+/g, '');
    return `-----BEGIN CERTIFICATE-----\n${body.replace(/(.{64})/g, '$1\n')}\n-----END CERTIFICATE-----\n`;
  });

/**
 * Verifies the enveloped signature that is a direct child of `element` against the trusted certificates only
 * (a certificate inside KeyInfo is never trusted). Returns the canonical XML that the signature covers, which
 * is the only XML the caller may read from; or undefined when the element carries no signature.
 */
export const verifyEnvelopedSignature = (
  fullXml: string,
  element: Element,
  what: string,
  trustedCerts: readonly string[],
  algorithms: AllowedAlgorithms,
): string | undefined => {
  const signatures = childrenNamed(element, NS.dsig, 'Signature');
  if (signatures.length === 0) return undefined;
  if (signatures.length > 1) throw samlError('signature', `the ${what} carries more than one signature`);
  const id = attr(element, 'ID');
  if (id === undefined) throw samlError('structure', `the signed ${what} has no ID attribute`);
  const [signature] = signatures as [Element];
  checkSignedInfo(signature, id, what, algorithms);
  for (const cert of trustedCerts) {
    const references = verifyWith(fullXml, signature, cert);
    if (references === undefined) continue;
    const [covered] = references;
    if (references.length !== 1 || covered === undefined) {
      throw samlError('signature', `the ${what} signature must cover exactly one element`);
    }
    return covered;
  }
  const validUnderKeyInfo = keyInfoCertificates(signature).some((cert) => verifyWith(fullXml, signature, cert));
  if (validUnderKeyInfo) {
    throw samlError(
      'certificate',
      `the ${what} is signed by a certificate that is not in the trusted set (KeyInfo certificates are never trusted)`,
    );
  }
  throw samlError('signature', `the ${what} signature is invalid (the content was altered or the signer is unknown)`);
};
