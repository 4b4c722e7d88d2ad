import type { Document, Element } from '@xmldom/xmldom';
import type { SignaturePolicy } from './config.ts';
import { allElements, attr, childrenNamed, descendantsNamed, fullText, NS, onlyChild } from './dom.ts';
import { samlError } from './errors.ts';
import { checkAssertionConditions, readIdentity, type SamlIdentity } from './assertion.ts';
import { decryptAssertion } from './decryption.ts';
import { type AllowedAlgorithms, verifyEnvelopedSignature } from './signature.ts';
import type { PendingSamlRequest, SamlTracker } from './store.ts';
import { decodeBase64Message, decodeUtf8Xml, parseUntrustedXml, type XmlLimits } from './xml-input.ts';

/** Everything the validator needs, resolved from settings, stored options and IdP metadata. */
export type SamlValidatorConfig = {
  readonly trustedCerts: readonly string[];
  readonly expectedIssuer: string;
  /** The SP entity id, required in every AudienceRestriction. */
  readonly audience: string;
  /** The ACS URL, required as Recipient and (when present) Destination. */
  readonly acsUrl: string;
  readonly signaturePolicy: SignaturePolicy;
  readonly algorithms: AllowedAlgorithms;
  readonly clockSkewMs: number;
  readonly now: () => Date;
  readonly allowIdpInitiated: boolean;
  readonly limits: XmlLimits;
  /** SP private key (PEM) for EncryptedAssertion; undefined = encrypted assertions are refused. */
  readonly decryptionKeyPem: string | undefined;
};

export type ValidatedSamlResponse = SamlIdentity & {
  readonly issuer: string;
  readonly assertionId: string;
  readonly inResponseTo: string | undefined;
  /** The pending SP-initiated request it answered (consumed); undefined for an IdP-initiated response. */
  readonly request: PendingSamlRequest | undefined;
  readonly signedParts: readonly ('response' | 'assertion')[];
  /** How the assertion was decrypted, or undefined when it arrived in the clear. */
  readonly decryption: string | undefined;
};

const structure = (message: string): never => {
  throw samlError('structure', message);
};

/** Signature-wrapping defence: no two elements may share an identifier, whatever the attribute spelling. */
const assertUniqueIds = (elements: readonly Element[]): void => {
  const seen = new Set<string>();
  for (const element of elements) {
    for (const name of ['ID', 'Id', 'id']) {
      const value = element.getAttribute(name);
      if (value === null || value === '') continue;
      if (seen.has(value)) structure('two elements share the same ID (a signature-wrapping pattern)');
      seen.add(value);
    }
  }
};

const checkPolicy = (policy: SignaturePolicy, response: boolean, assertion: boolean): void => {
  const ok =
    policy === 'both' ? response && assertion : policy === 'either' ? response || assertion : policy === 'response' ? response : assertion;
  if (!ok) {
    const have = response ? 'only the response is signed' : assertion ? 'only the assertion is signed' : 'nothing is signed';
    throw samlError('signature', `signature policy "${policy}" is not met: ${have}`);
  }
};

/** Parses the XML that a verified signature covers; the only XML trusted from here on. */
const parseSigned = (xml: string, config: SamlValidatorConfig, ns: string, localName: string): Element => {
  const root = parseUntrustedXml(xml, config.limits).documentElement;
  if (root === null || root.namespaceURI !== ns || root.localName !== localName) {
    return structure(`the signed content is not a ${localName}`);
  }
  return root;
};

const checkIssuer = (element: Element, expected: string, what: string, required: boolean): void => {
  const issuer = onlyChild(element, NS.assertion, 'Issuer', () => structure(`the ${what} has several Issuers`));
  if (issuer === undefined) {
    if (required) throw samlError('issuer', `the ${what} has no Issuer`);
    return;
  }
  if (fullText(issuer) !== expected) throw samlError('issuer', `the ${what} Issuer is not the expected IdP`);
};

const checkStatus = (response: Element): void => {
  const status = onlyChild(response, NS.protocol, 'Status', () => structure('the response has several Status elements'));
  const code = status && onlyChild(status, NS.protocol, 'StatusCode', () => structure('several StatusCode elements'));
  const value = code && attr(code, 'Value');
  if (value !== 'urn:oasis:names:tc:SAML:2.0:status:Success') {
    throw samlError('status', `the IdP reported status ${value ?? '(none)'}`);
  }
};

const isAssertionElement = (node: Element, localName: string): boolean =>
  node.namespaceURI === NS.assertion && node.localName === localName;

/** True when `node` sits inside the Advice of `top`: content we never read, so it may hold other assertions. */
const insideAdvice = (node: Element, top: Element): boolean => {
  let child = node;
  for (let parent = node.parentNode as Element | null; parent !== null; child = parent, parent = parent.parentNode as Element | null) {
    if (parent === top) return isAssertionElement(child, 'Advice');
  }
  return false;
};

/** The one Assertion or EncryptedAssertion that is a direct child of the Response: the only one evaluated. */
const topLevelAssertion = (response: Element): Element => {
  const candidates = [
    ...childrenNamed(response, NS.assertion, 'Assertion'),
    ...childrenNamed(response, NS.assertion, 'EncryptedAssertion'),
  ];
  if (candidates.length !== 1) {
    structure(`expected exactly one Assertion or EncryptedAssertion as a direct child of the Response (found ${candidates.length})`);
  }
  return candidates[0] as Element;
};

/**
 * Signature-wrapping defence: apart from the evaluated assertion, assertions may only appear inside its Advice
 * (never read), and signatures only on the Response (`owner`), the evaluated assertion, or inside that Advice.
 */
const checkPlacement = (doc: Document, owner: Element | undefined, top: Element): void => {
  const assertions = [...descendantsNamed(doc, NS.assertion, 'Assertion'), ...descendantsNamed(doc, NS.assertion, 'EncryptedAssertion')];
  if (assertions.some((assertion) => assertion !== top && !insideAdvice(assertion, top))) {
    structure('an Assertion sits outside the evaluated assertion and its Advice (a signature-wrapping pattern)');
  }
  for (const signature of descendantsNamed(doc, NS.dsig, 'Signature')) {
    const parent = signature.parentNode;
    if (parent !== owner && parent !== top && !insideAdvice(signature, top)) {
      throw samlError('signature', 'a signature sits somewhere other than on the Response or the Assertion');
    }
  }
};

/** An unsigned assertion whose Advice holds a signed one is a wrapping attempt; say so rather than "unsigned". */
const refuseSignedAdviceUnder = (top: Element): void => {
  const advised = childrenNamed(top, NS.assertion, 'Advice').flatMap((advice) => descendantsNamed(advice, NS.assertion, 'Assertion'));
  if (advised.some((assertion) => childrenNamed(assertion, NS.dsig, 'Signature').length > 0)) {
    structure('the evaluated assertion is unsigned but its Advice holds a signed assertion (a signature-wrapping pattern)');
  }
};

/**
 * Validates a base64 SAMLResponse (HTTP-POST binding) and returns the authenticated identity. Order: size and
 * encoding, safe parse, structure (one top-level assertion, unique IDs, signatures only where allowed), the
 * response signature, decryption of an EncryptedAssertion (from the signed response when it is signed), the
 * assertion signature, then every check on the signed XML only, and last the state-changing checks
 * (InResponseTo consumed, assertion id remembered) so a rejected message never burns a legitimate one.
 */
export const validateSamlResponse = async (
  encoded: string,
  config: SamlValidatorConfig,
  tracker: SamlTracker,
): Promise<ValidatedSamlResponse> => {
  if (config.trustedCerts.length === 0) throw samlError('config', 'no trusted IdP certificate is configured');
  if (config.expectedIssuer === '') throw samlError('config', 'no expected IdP issuer is configured');
  const xml = decodeUtf8Xml(decodeBase64Message(encoded, config.limits)).replace(/\r\n?/g, '\n');
  const doc = parseUntrustedXml(xml, config.limits);
  const root = doc.documentElement as Element;
  if (root.namespaceURI !== NS.protocol || root.localName !== 'Response') structure('the root element is not a samlp:Response');
  assertUniqueIds(allElements(doc));
  const top = topLevelAssertion(root);
  checkPlacement(doc, root, top);
  const verify = (text: string, element: Element, what: string) =>
    verifyEnvelopedSignature(text, element, what, config.trustedCerts, config.algorithms);
  const signedResponseXml = verify(xml, root, 'response');
  const response = signedResponseXml === undefined ? root : parseSigned(signedResponseXml, config, NS.protocol, 'Response');

  let signedAssertionXml: string | undefined;
  let assertionInResponse: Element | undefined;
  let decryption: string | undefined;
  if (isAssertionElement(top, 'EncryptedAssertion')) {
    // When the response is signed, decrypt the cipher text that signature covers: it is authenticated first.
    const encrypted = childrenNamed(response, NS.assertion, 'EncryptedAssertion')[0];
    if (encrypted === undefined) return structure('the signed response holds no EncryptedAssertion');
    const decrypted = decryptAssertion(encrypted, config.decryptionKeyPem, config.limits);
    assertUniqueIds(allElements(decrypted.doc));
    checkPlacement(decrypted.doc, undefined, decrypted.assertion);
    signedAssertionXml = verify(decrypted.xml, decrypted.assertion, 'assertion');
    assertionInResponse = decrypted.assertion;
    decryption = decrypted.method;
  } else {
    signedAssertionXml = verify(xml, top, 'assertion');
    assertionInResponse = childrenNamed(response, NS.assertion, 'Assertion')[0];
    if (signedResponseXml === undefined && signedAssertionXml === undefined) refuseSignedAdviceUnder(top);
  }
  checkPolicy(config.signaturePolicy, signedResponseXml !== undefined, signedAssertionXml !== undefined);
  const trustedAssertion =
    signedAssertionXml !== undefined ? parseSigned(signedAssertionXml, config, NS.assertion, 'Assertion') : assertionInResponse;
  if (trustedAssertion === undefined) return structure('the signed response holds no assertion');
  const assertionId = attr(trustedAssertion, 'ID');
  if (assertionId === undefined) return structure('the assertion has no ID');
  checkStatus(response);
  checkIssuer(response, config.expectedIssuer, 'response', false);
  checkIssuer(trustedAssertion, config.expectedIssuer, 'assertion', true);
  const destination = attr(response, 'Destination');
  if (destination !== undefined && destination !== config.acsUrl) {
    throw samlError('destination', "the response Destination is not this service provider's ACS URL");
  }
  if (destination === undefined && signedResponseXml !== undefined) {
    throw samlError('destination', 'a signed response must carry a Destination');
  }
  const conditions = checkAssertionConditions(trustedAssertion, config);
  const responseInResponseTo = attr(response, 'InResponseTo');
  if (responseInResponseTo !== undefined && conditions.inResponseTo !== undefined && responseInResponseTo !== conditions.inResponseTo) {
    throw samlError('in_response_to', 'the response and the assertion answer different requests');
  }
  const inResponseTo = conditions.inResponseTo ?? responseInResponseTo;
  const identity = readIdentity(trustedAssertion);

  if (inResponseTo === undefined && !config.allowIdpInitiated) {
    throw samlError('in_response_to', 'unsolicited (IdP-initiated) responses are disabled (allowIdpInitiated is off)');
  }
  const request = inResponseTo === undefined ? undefined : await tracker.consumeRequest(inResponseTo);
  if (inResponseTo !== undefined && request === undefined) {
    throw samlError('in_response_to', 'InResponseTo does not match a pending login request (unknown, used or expired)');
  }
  if (!(await tracker.rememberAssertion(assertionId, conditions.expiresAt))) {
    throw samlError('replay', 'this assertion was already used');
  }
  const signedParts = [
    ...(signedResponseXml === undefined ? [] : (['response'] as const)),
    ...(signedAssertionXml === undefined ? [] : (['assertion'] as const)),
  ];
  return { ...identity, issuer: config.expectedIssuer, assertionId, inResponseTo, request, signedParts, decryption };
};
