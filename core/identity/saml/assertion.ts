import type { Element } from '@xmldom/xmldom';
import { attr, childrenNamed, fullText, NS, onlyChild } from './dom.ts';
import { samlError } from './errors.ts';
import { parseXsdDateTime } from './xsd-datetime.ts';

type ConditionsConfig = {
  readonly audience: string;
  readonly acsUrl: string;
  readonly clockSkewMs: number;
  readonly now: () => Date;
};

export type SamlIdentity = {
  readonly subject: string;
  readonly nameIdFormat: string | undefined;
  readonly email: string;
  /** AuthnStatement SessionIndex: the IdP's session, used as idp_session_id. */
  readonly sessionIndex: string | undefined;
  readonly attributes: Readonly<Record<string, readonly string[]>>;
};

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailaddress',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];

const structure = (message: string): never => {
  throw samlError('structure', message);
};

const instant = (element: Element, name: string): number | undefined => {
  const raw = attr(element, name);
  if (raw === undefined) return undefined;
  const parsed = parseXsdDateTime(raw);
  if (parsed === undefined) throw samlError('time', `${name} is not an xsd:dateTime with a time zone (Z or ±hh:mm)`);
  return parsed;
};

const checkWindow = (element: Element, what: string, config: ConditionsConfig): number | undefined => {
  const now = config.now().getTime();
  const notBefore = instant(element, 'NotBefore');
  const notOnOrAfter = instant(element, 'NotOnOrAfter');
  if (notBefore !== undefined && now + config.clockSkewMs < notBefore) {
    throw samlError('time', `the ${what} is not valid yet (NotBefore is in the future)`);
  }
  if (notOnOrAfter !== undefined && now - config.clockSkewMs >= notOnOrAfter) {
    throw samlError('time', `the ${what} has expired (NotOnOrAfter has passed)`);
  }
  return notOnOrAfter;
};

const checkAudience = (conditions: Element, audience: string): void => {
  const restrictions = childrenNamed(conditions, NS.assertion, 'AudienceRestriction');
  if (restrictions.length === 0) throw samlError('audience', 'the assertion has no AudienceRestriction');
  for (const restriction of restrictions) {
    const audiences = childrenNamed(restriction, NS.assertion, 'Audience').map(fullText);
    if (!audiences.includes(audience)) throw samlError('audience', 'the assertion is meant for another service provider');
  }
};

/**
 * Checks the signed assertion's Conditions (validity window, audience) and its bearer SubjectConfirmation
 * (Recipient, validity window, InResponseTo). Returns the InResponseTo value and when the assertion expires,
 * which bounds how long its id must stay in the replay cache.
 */
export const checkAssertionConditions = (
  assertion: Element,
  config: ConditionsConfig,
): { inResponseTo: string | undefined; expiresAt: Date } => {
  const conditions = onlyChild(assertion, NS.assertion, 'Conditions', () => structure('several Conditions elements'));
  if (conditions === undefined) throw samlError('audience', 'the assertion has no Conditions');
  const conditionsEnd = checkWindow(conditions, 'assertion', config);
  checkAudience(conditions, config.audience);

  const subject = onlyChild(assertion, NS.assertion, 'Subject', () => structure('several Subject elements'));
  if (subject === undefined) throw samlError('subject', 'the assertion has no Subject');
  const bearer = childrenNamed(subject, NS.assertion, 'SubjectConfirmation').filter((c) => attr(c, 'Method') === BEARER);
  if (bearer.length !== 1) throw samlError('subject', 'the assertion must have exactly one bearer SubjectConfirmation');
  const data = onlyChild(bearer[0] as Element, NS.assertion, 'SubjectConfirmationData', () => structure('several SubjectConfirmationData'));
  if (data === undefined) throw samlError('recipient', 'the bearer confirmation has no SubjectConfirmationData');
  if (attr(data, 'Recipient') !== config.acsUrl) {
    throw samlError('recipient', "SubjectConfirmationData Recipient is not this service provider's ACS URL");
  }
  if (attr(data, 'NotOnOrAfter') === undefined) {
    throw samlError('time', 'the bearer confirmation has no NotOnOrAfter');
  }
  const confirmationEnd = checkWindow(data, 'subject confirmation', config) as number;
  const expiresAt = new Date(Math.max(confirmationEnd, conditionsEnd ?? confirmationEnd) + config.clockSkewMs);
  return { inResponseTo: attr(data, 'InResponseTo'), expiresAt };
};

const readAttributes = (assertion: Element): Record<string, string[]> => {
  const out: Record<string, string[]> = {};
  for (const statement of childrenNamed(assertion, NS.assertion, 'AttributeStatement')) {
    for (const attribute of childrenNamed(statement, NS.assertion, 'Attribute')) {
      const name = attr(attribute, 'Name');
      if (name === undefined) continue;
      out[name] = [...(out[name] ?? []), ...childrenNamed(attribute, NS.assertion, 'AttributeValue').map(fullText)];
    }
  }
  return out;
};

const looksLikeEmail = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** The subject (NameID), email (NameID in email format, else a well-known email attribute) and SessionIndex. */
export const readIdentity = (assertion: Element): SamlIdentity => {
  const subjectElement = childrenNamed(assertion, NS.assertion, 'Subject')[0];
  const nameId = subjectElement && onlyChild(subjectElement, NS.assertion, 'NameID', () => structure('several NameIDs'));
  const subject = nameId === undefined ? '' : fullText(nameId);
  if (subject === '') throw samlError('subject', 'the assertion has no NameID');
  const nameIdFormat = nameId === undefined ? undefined : attr(nameId, 'Format');
  const attributes = readAttributes(assertion);
  const fromAttributes = Object.entries(attributes)
    .filter(([name]) => EMAIL_ATTRIBUTES.includes(name.toLowerCase()))
    .flatMap(([, values]) => values)
    .find(looksLikeEmail);
  const email = nameIdFormat === EMAIL_FORMAT || looksLikeEmail(subject) ? subject : (fromAttributes ?? '');
  // Web Browser SSO profile (SAML profiles 4.1.4.2): the assertion that logs someone in carries an AuthnStatement.
  const authn = childrenNamed(assertion, NS.assertion, 'AuthnStatement')[0];
  if (authn === undefined)
    throw samlError('authn_statement', 'the assertion has no AuthnStatement (required by the Web Browser SSO profile)');
  return {
    subject,
    nameIdFormat,
    email,
    sessionIndex: attr(authn, 'SessionIndex'),
    attributes,
  };
};
