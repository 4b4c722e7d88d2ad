/**
 * EMAIL_ADDRESS: a hand-written scanner instead of Presidio's regex (whose nested domain groups backtrack
 * on inputs like `a@a.a.a…`): from each `@`, expand left over local-part characters (≤ 64) and right over
 * domain characters (≤ 253). Base 0.5; a registrable domain under an ICANN public suffix (tldts) → 1.0,
 * otherwise dropped (Presidio: tldextract `fqdn` non-empty).
 */
import { parse } from 'tldts';
import { scoreCandidate } from '../../pattern.ts';
import type { Finding, Recognizer } from '../../types.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const LOCAL = /[\p{L}\p{N}_!#$%&'*+\-/=?^`{|}~.]/u;
const DOMAIN = /[\p{L}\p{N}_.-]/u;
const WORD = /[\p{L}\p{N}_]/u;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/** True when `domain` has a registrable part under an ICANN public suffix. */
export const hasPublicSuffix = (domain: string): boolean => {
  const parsed = parse(domain);
  return parsed.domain !== null && parsed.isIcann === true && !parsed.isIp;
};

const spec = {
  name: 'EmailRecognizer',
  entity: 'EMAIL_ADDRESS',
  validate: (text: string) => hasPublicSuffix(text.slice(text.lastIndexOf('@') + 1)),
};

/** Domain part starting at `from`: labels of word chars with inner hyphens, at least one dot; end index or -1. */
const domainEnd = (text: string, from: number): number => {
  let end = from;
  while (end < text.length && end - from < MAX_DOMAIN && DOMAIN.test(text[end] as string)) end++;
  // Cut at the first empty label or label edge hyphen, then trim trailing separators.
  const labels = text.slice(from, end).split('.');
  let length = 0;
  let count = 0;
  for (const label of labels) {
    if (label === '' || label.startsWith('-')) break;
    const clean = label.endsWith('-') ? label.replace(/-+$/, '') : label;
    length += (count > 0 ? 1 : 0) + clean.length;
    count++;
    if (clean !== label) break;
  }
  return count >= 2 ? from + length : -1;
};

const findEmails = (text: string): Finding[] => {
  const findings: Finding[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > 0 && at - start < MAX_LOCAL && LOCAL.test(text[start - 1] as string)) start--;
    while (start < at && text[start] === '.') start++;
    if (start === at || text[at - 1] === '.') continue;
    if (start > 0 && WORD.test(text[start - 1] as string)) continue; // longer than 64: not an address
    const end = domainEnd(text, at + 1);
    if (end === -1) continue;
    const matched = text.slice(start, end);
    const f = scoreCandidate(spec, 'Email (Medium)', 0.5, matched, start, end);
    if (f) findings.push(f);
  }
  return findings;
};

export const emailRecognizer: Recognizer = {
  name: spec.name,
  supportedEntities: [spec.entity],
  supportedLanguages: GENERIC_LANGUAGES,
  context: ['email'],
  enabledByDefault: true,
  analyze: ({ text }) => findEmails(text),
};
