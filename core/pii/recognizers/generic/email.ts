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

const WORD_RE = /[\p{L}\p{N}_]/u;
const LOCAL_SPECIALS = "!#$%&'*+-/=?^`{|}~.";
/** ASCII fast path, Unicode property test above 0x7f. */
const isWord = (ch: string): boolean => {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  return WORD_RE.test(ch);
};
const LOCAL = { test: (ch: string) => isWord(ch) || LOCAL_SPECIALS.includes(ch) };
const DOMAIN = { test: (ch: string) => isWord(ch) || ch === '.' || ch === '-' };
const WORD = { test: isWord };
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
