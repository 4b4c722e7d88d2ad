/**
 * PHONE_NUMBER: no regex of our own — libphonenumber-js (full metadata) `findPhoneNumbersInText`
 * (leniency VALID, the library default) per region of Presidio's list (US, GB, DE, FR, IL, IN, CA, BR), fixed score 0.4. To stay fast on large
 * texts it only runs on windows around digit runs that could hold a number (a linear pre-filter).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { findPhoneNumbersInText } from 'libphonenumber-js/max';
import type { Finding, Recognizer } from '../../types.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

export const PHONE_REGIONS: readonly CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR'];
const SCORE = 0.4;
const CANDIDATE = /[+(]?\d[\d ().\-/]{4,28}\d/g;
const MARGIN = 2;
const MIN_DIGITS = 6;

const countDigits = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
};

/** Windows [start, end) of the text where a phone number may be. */
const candidateWindows = (text: string): Array<[number, number]> => {
  const windows: Array<[number, number]> = [];
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    if (countDigits(m[0]) < MIN_DIGITS) continue;
    const start = Math.max(0, m.index - MARGIN);
    const end = Math.min(text.length, m.index + m[0].length + MARGIN);
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else windows.push([start, end]);
  }
  return windows;
};

/** Creates a phone recognizer for the given regions/entity (Presidio builds PH_MOBILE_NUMBER etc. this way). */
export const phoneRecognizerFor = (
  regions: readonly CountryCode[],
  entity = 'PHONE_NUMBER',
  context: readonly string[] = ['phone', 'number', 'telephone', 'cell', 'cellphone', 'mobile', 'call'],
  languages: readonly string[] = GENERIC_LANGUAGES,
): Recognizer => ({
  name: entity === 'PHONE_NUMBER' ? 'PhoneRecognizer' : `PhoneRecognizer_${entity}`,
  supportedEntities: [entity],
  supportedLanguages: languages,
  context,
  enabledByDefault: true,
  analyze: ({ text }) => {
    const seen = new Set<string>();
    const findings: Finding[] = [];
    for (const [ws, we] of candidateWindows(text)) {
      const window = text.slice(ws, we);
      for (const region of regions) {
        for (const match of findPhoneNumbersInText(window, region)) {
          const start = ws + match.startsAt;
          const end = ws + match.endsAt;
          const key = `${start}:${end}`;
          if (seen.has(key)) continue;
          seen.add(key);
          findings.push({
            type: entity,
            start,
            end,
            score: SCORE,
            explanation: { recognizer: 'PhoneRecognizer', pattern: `libphonenumber ${region}`, originalScore: SCORE, score: SCORE, validationResult: null },
          });
        }
      }
    }
    return findings;
  },
});

export const phoneRecognizer = phoneRecognizerFor(PHONE_REGIONS);
