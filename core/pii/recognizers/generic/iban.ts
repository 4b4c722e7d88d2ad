/**
 * IBAN_CODE: country code + 2 check digits + groups of 4 (optional space/hyphen) + optional tail, not inside
 * a longer alphanumeric run → 0.5. The longest variant is tried first, then shorter ones (group by group);
 * the first that validates wins. ISO 7064 mod-97 + the country's length and BBAN format (ibantools: bank-code
 * letters where the country has them) → 1.0; otherwise dropped.
 * Case (ISO 13616 writes IBANs in capitals): the country code must be upper-case (Presidio matches any case);
 * lower-case letters in the BBAN (a bank code typed `west`) keep 0.5, as in Presidio.
 */
import { isValidIBAN } from 'ibantools';
import { forEachMatch, scoreCandidate } from '../../pattern.ts';
import type { Finding, Recognizer } from '../../types.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const CANDIDATE = /(?<![\p{L}\p{N}])[A-Z]{2}\d{2}(?:[ -]?[a-zA-Z0-9]{4}){2,7}(?:[ -]?[a-zA-Z0-9]{1,3})?(?![\p{L}\p{N}])/gu;
const ALNUM_AFTER = /[\p{L}\p{N}]/u;

/** true = valid IBAN, null = valid only once upper-cased, false = invalid. */
export const validateIban = (text: string): boolean | null => {
  const compact = text.replace(/[ -]/g, '');
  const upper = compact.toUpperCase();
  if (!isValidIBAN(upper)) return false;
  return compact === upper ? true : null;
};

const spec = { name: 'IbanRecognizer', entity: 'IBAN_CODE', validate: validateIban };

/** Candidate ends, longest first: the full match, then cut back at each group boundary (≥ 15 chars). */
const variants = (matched: string): number[] => {
  const ends = [matched.length];
  for (let i = matched.length - 1; i >= 15; i--) {
    const c = matched[i];
    if (c === ' ' || c === '-') ends.push(i);
  }
  const compactLength = (end: number) => matched.slice(0, end).replace(/[ -]/g, '').length;
  return ends.filter((e) => compactLength(e) >= 15);
};

const findIbans = (text: string): Finding[] => {
  const findings: Finding[] = [];
  forEachMatch(CANDIDATE, text, undefined, (matched, start) => {
    for (const cut of variants(matched)) {
      const candidate = matched.slice(0, cut);
      const next = text[start + cut];
      if (next !== undefined && ALNUM_AFTER.test(next)) continue;
      const f = scoreCandidate(spec, 'IBAN Generic', 0.5, candidate, start, start + cut);
      if (f) {
        findings.push(f);
        return;
      }
    }
  });
  return findings;
};

export const ibanRecognizer: Recognizer = {
  name: spec.name,
  supportedEntities: [spec.entity],
  supportedLanguages: GENERIC_LANGUAGES,
  context: ['iban', 'bank', 'transaction'],
  enabledByDefault: true,
  analyze: ({ text }) => findIbans(text),
};
