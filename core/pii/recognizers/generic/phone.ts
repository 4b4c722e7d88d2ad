/**
 * PHONE_NUMBER: libphonenumber's metadata (full set) decides validity for the scan's phone regions (the
 * request's `phone_regions`, else the SVC_PII_PHONE_REGIONS setting, default Presidio's US, GB, DE, FR, IL, IN,
 * CA, BR), fixed score 0.4. A national number must carry its trunk prefix where its region's format requires
 * one (libphonenumber's VALID leniency, phone-validity.ts). libphonenumber's text matcher costs ~0.1–1 ms per call per region, so
 * instead of running it over the whole text 8 times we extract phone-shaped candidates with one linear
 * regex (≤ 24 chars, digit-bounded), try the candidate and its trimmed variants, and stop at the first
 * region whose compiled national patterns accept it (phone-validity.ts); `+` numbers go through
 * libphonenumber-js's parser. Results are memoised per candidate string (bounded cache).
 */
import type { CountryCode } from 'libphonenumber-js/max';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { isValidNationalNumber } from './phone-validity.ts';
import type { Finding, Recognizer } from '../../types.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

export const PHONE_REGIONS: readonly CountryCode[] = ['US', 'GB', 'DE', 'FR', 'IL', 'IN', 'CA', 'BR'];
const SCORE = 0.4;
const CANDIDATE = /(?<![\w+.\-/])(?:\+|\(\d)?\d[\d ().\-/]{4,22}\d(?!\d|[.\-/]\d)/g;
const CACHE_LIMIT = 20_000;
/** Dates written like numbers (2024-01-15, 15.01.2024) are not phone numbers, whatever a region's plan allows. */
const DATE_SHAPE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;

/**
 * Region that validates `candidate`, or null. `+` numbers are parsed on their own: any valid one counts for
 * PHONE_NUMBER (`anyCountry`), a country entity needs it to belong to one of its regions.
 */
const validRegion = (candidate: string, regions: readonly CountryCode[], anyCountry: boolean): string | null => {
  if (candidate.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(candidate);
    if (parsed?.isValid() !== true) return null;
    if (anyCountry) return 'international';
    return parsed.country !== undefined && regions.includes(parsed.country) ? parsed.country : null;
  }
  const digits = candidate.replace(/\D/g, '');
  for (const region of regions) if (isValidNationalNumber(digits, region)) return region;
  return null;
};

/** The candidate, then (if invalid) without its last and/or first separated group. */
const variants = (candidate: string): Array<[number, number]> => {
  const spans: Array<[number, number]> = [[0, candidate.length]];
  const lastSep = candidate.search(/[ ./-]\d+\)?$/);
  const firstSep = candidate.search(/[ ./-]/);
  if (lastSep > 6) spans.push([0, lastSep]);
  if (firstSep > 0 && candidate.length - firstSep > 7) spans.push([firstSep + 1, candidate.length]);
  return spans;
};

export const PHONE_CONTEXT = ['phone', 'number', 'telephone', 'cell', 'cellphone', 'mobile', 'call'] as const;

/**
 * Creates a phone recognizer for the given regions/entity (Presidio builds PH_MOBILE_NUMBER etc. this way).
 * With `regionsFromRequest`, the scan's `phoneRegions` (when given) replace `regions`.
 */
export const phoneRecognizerFor = (
  regions: readonly CountryCode[],
  entity = 'PHONE_NUMBER',
  context: readonly string[] = PHONE_CONTEXT,
  options: { readonly regionsFromRequest?: boolean; readonly enabledByDefault?: boolean } = {},
): Recognizer => {
  const cache = new Map<string, { span: [number, number]; region: string } | null>();
  const resolve = (candidate: string, regions: readonly CountryCode[]) => {
    const key = `${regions.join(',')}|${candidate}`;
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let result: { span: [number, number]; region: string } | null = null;
    for (const span of variants(candidate)) {
      const region = validRegion(candidate.slice(span[0], span[1]), regions, options.regionsFromRequest === true);
      if (region) {
        result = { span, region };
        break;
      }
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, result);
    return result;
  };
  const name = entity === 'PHONE_NUMBER' ? 'PhoneRecognizer' : `PhoneRecognizer_${entity}`;
  return {
    name,
    supportedEntities: [entity],
    supportedLanguages: GENERIC_LANGUAGES,
    context,
    enabledByDefault: options.enabledByDefault ?? true,
    analyze: ({ text, phoneRegions }) => {
      const scanRegions = options.regionsFromRequest && phoneRegions !== undefined ? phoneRegions : regions;
      const findings: Finding[] = [];
      CANDIDATE.lastIndex = 0;
      for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
        const trimmed = m[0].replace(/[ (.\-/]+$/, '');
        if (DATE_SHAPE.test(trimmed)) continue;
        const found = resolve(trimmed, scanRegions);
        if (!found) continue;
        const start = m.index + found.span[0];
        const end = m.index + found.span[1];
        findings.push({
          type: entity,
          start,
          end,
          score: SCORE,
          explanation: {
            recognizer: name,
            pattern: `libphonenumber ${found.region}`,
            originalScore: SCORE,
            score: SCORE,
            validationResult: null,
          },
        });
      }
      return findings;
    },
  };
};

export const phoneRecognizer = phoneRecognizerFor(PHONE_REGIONS, 'PHONE_NUMBER', PHONE_CONTEXT, { regionsFromRequest: true });
