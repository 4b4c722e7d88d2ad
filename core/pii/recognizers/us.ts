/** United States recognizers (reference §5 "United States"). Patterns are case-insensitive like Presidio's flags 26. */
import { allSame, digitsOf, luhnValid, weightedSum } from '../checksums.ts';
import { definePatternRecognizer } from '../pattern.ts';

const EN = ['en'];

/** Presidio's SSN invalidations: mixed delimiters, repeated digit, zero groups, sample/reserved prefixes. */
export const invalidSsn = (text: string): boolean => {
  const delimiters = new Set(text.replace(/\d/g, ''));
  if (delimiters.size > 1) return true;
  const d = digitsOf(text);
  if (d.length !== 9 || allSame(d)) return true;
  if (d.slice(3, 5) === '00' || d.slice(5) === '0000') return true;
  return ['000', '666', '123456789', '98765432', '078051120'].some((p) => d.startsWith(p));
};

export const usSsnRecognizer = definePatternRecognizer({
  name: 'UsSsnRecognizer',
  entity: 'US_SSN',
  languages: EN,
  context: ['social', 'security', 'ssn', 'ssns', 'ssid'],
  patterns: [
    { name: 'SSN1 (very weak)', regex: /\b\d{5}-\d{4}\b/, score: 0.05 },
    { name: 'SSN2 (very weak)', regex: /\b\d{3}-\d{6}\b/, score: 0.05 },
    { name: 'SSN3 (very weak)', regex: /\b\d{3}-\d{2}-\d{4}\b/, score: 0.05 },
    { name: 'SSN4 (very weak)', regex: /\b\d{9}\b/, score: 0.05 },
    { name: 'SSN5 (medium)', regex: /\b\d{3}[- .]\d{2}[- .]\d{4}\b/, score: 0.5 },
  ],
  invalidate: invalidSsn,
});

const ITIN_MID = '(?:5\\d|6[0-5]|7\\d|8[0-8]|9[0-2]|9[4-9])';
export const usItinRecognizer = definePatternRecognizer({
  name: 'UsItinRecognizer',
  entity: 'US_ITIN',
  languages: EN,
  context: ['individual', 'taxpayer', 'itin', 'tax', 'payer', 'taxid', 'tin'],
  patterns: [
    {
      name: 'Itin (very weak)',
      regex: new RegExp(`\\b9\\d{2}[- ]${ITIN_MID}\\d{4}\\b|\\b9\\d{2}${ITIN_MID}[- ]\\d{4}\\b`),
      score: 0.05,
    },
    { name: 'Itin (weak)', regex: new RegExp(`\\b9\\d{2}${ITIN_MID}\\d{4}\\b`), score: 0.3 },
    { name: 'Itin (medium)', regex: new RegExp(`\\b9\\d{2}[- ]${ITIN_MID}[- ]\\d{4}\\b`), score: 0.5 },
  ],
});

export const usPassportRecognizer = definePatternRecognizer({
  name: 'UsPassportRecognizer',
  entity: 'US_PASSPORT',
  languages: EN,
  context: ['us', 'united', 'states', 'passport', 'passport#', 'travel', 'document'],
  patterns: [
    { name: 'Passport (very weak)', regex: /\b\d{9}\b/, score: 0.05 },
    { name: 'Passport Next Generation (very weak)', regex: /\b[a-z]\d{8}\b/i, score: 0.1 },
  ],
});

export const usDriverLicenseRecognizer = definePatternRecognizer({
  name: 'UsLicenseRecognizer',
  entity: 'US_DRIVER_LICENSE',
  languages: EN,
  context: ['driver', 'license', 'permit', 'lic', 'identification', 'dls', 'cdls', 'lic#', 'driving'],
  patterns: [
    {
      name: 'Driver License - Alphanumeric (weak)',
      regex:
        /\b(?:[a-z]\d{3,14}|[a-z]{2}\d{2,7}|[a-z]{2}\d{3,4}[a-z]|\d{2}[a-z]{3}\d{5}|\d{3}[a-z]{2}\d{4}|\d{7,9}[a-z]{1,2}|[a-z]\d{2}-\d{3}-\d{3}|[a-z]\d{3}-\d{4}-\d{4}|[a-z]-\d{3}-\d{3}-\d{3}-\d{3}|[a-z]{3}\*\*[a-z]{2}\d{3}[a-z]\d)\b/i,
      score: 0.3,
    },
    { name: 'Driver License - Digits (very weak)', regex: /\b(?:\d{6,14}|\d{16})\b/, score: 0.01 },
  ],
});

export const usBankRecognizer = definePatternRecognizer({
  name: 'UsBankRecognizer',
  entity: 'US_BANK_NUMBER',
  languages: EN,
  context: ['check', 'account', 'account#', 'acct', 'bank', 'save', 'debit'],
  patterns: [{ name: 'Bank Account (weak)', regex: /\b\d{8,17}\b/, score: 0.05 }],
});

const MBI_L = '[ac-hjkmnp-rt-y]';
const MBI_A = '[ac-hjkmnp-rt-y0-9]';
export const usMbiRecognizer = definePatternRecognizer({
  name: 'UsMbiRecognizer',
  entity: 'US_MBI',
  languages: EN,
  enabledByDefault: false,
  context: ['medicare', 'mbi', 'beneficiary', 'cms', 'medicaid', 'hic', 'hicn'],
  patterns: [
    {
      name: 'MBI (weak)',
      regex: new RegExp(`\\b[1-9]${MBI_L}${MBI_A}\\d${MBI_L}${MBI_A}\\d${MBI_L}{2}\\d{2}\\b`, 'i'),
      score: 0.3,
    },
    {
      name: 'MBI dashed (medium)',
      regex: new RegExp(`\\b[1-9]${MBI_L}${MBI_A}\\d-${MBI_L}${MBI_A}\\d-${MBI_L}{2}\\d{2}\\b`, 'i'),
      score: 0.5,
    },
  ],
});

export const usNpiRecognizer = definePatternRecognizer({
  name: 'UsNpiRecognizer',
  entity: 'US_NPI',
  languages: EN,
  enabledByDefault: false,
  context: ['npi', 'national provider', 'provider', 'npi number', 'provider id', 'provider identifier', 'taxonomy'],
  patterns: [
    { name: 'NPI (weak)', regex: /\b[12]\d{9}\b/, score: 0.1 },
    { name: 'NPI separated (medium)', regex: /\b[12]\d{3}[- ]\d{3}[- ]\d{3}\b/, score: 0.4 },
  ],
  validate: (text) => luhnValid(`80840${digitsOf(text)}`),
  invalidate: (text) => allSame(digitsOf(text).slice(0, 9)),
});

/** ABA routing: weights 3,7,1 repeating, sum ≡ 0 (mod 10). */
export const abaValid = (text: string): boolean => {
  const d = digitsOf(text);
  return d.length === 9 && weightedSum(d, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0;
};

export const abaRoutingRecognizer = definePatternRecognizer({
  name: 'AbaRoutingRecognizer',
  entity: 'ABA_ROUTING_NUMBER',
  languages: EN,
  enabledByDefault: false,
  context: ['aba', 'routing', 'abarouting', 'association', 'bankrouting'],
  patterns: [
    { name: 'ABA routing number (weak)', regex: /\b[0123678]\d{8}\b/, score: 0.05 },
    { name: 'ABA routing number', regex: /\b[0123678]\d{3}-\d{4}-\d\b/, score: 0.3 },
  ],
  validate: abaValid,
});

export const usRecognizers = [
  usSsnRecognizer,
  usItinRecognizer,
  usPassportRecognizer,
  usDriverLicenseRecognizer,
  usBankRecognizer,
  usMbiRecognizer,
  usNpiRecognizer,
  abaRoutingRecognizer,
];
