/** United Kingdom recognizers (reference §5 "United Kingdom"); only UK_NHS is enabled by default. */
import { digitsOf, weightedSum } from '../checksums.ts';
import { definePatternRecognizer } from '../pattern.ts';

const EN = ['en'];

/** NHS number: weights 10…1 over the 10 digits, sum ≡ 0 (mod 11). */
export const nhsValid = (text: string): boolean => {
  const d = digitsOf(text);
  return d.length === 10 && weightedSum(d, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0;
};

export const ukNhsRecognizer = definePatternRecognizer({
  name: 'NhsRecognizer',
  entity: 'UK_NHS',
  languages: EN,
  context: ['national health service', 'nhs', 'health services authority', 'health authority'],
  patterns: [{ name: 'NHS (medium)', regex: /\b\d{3}[- ]?\d{3}[- ]?\d{4}\b/, score: 0.5 }],
  validate: nhsValid,
});

export const ukNinoRecognizer = definePatternRecognizer({
  name: 'UkNinoRecognizer',
  entity: 'UK_NINO',
  languages: EN,
  enabledByDefault: false,
  context: ['national insurance', 'ni number', 'nino'],
  patterns: [
    {
      name: 'NINO (medium)',
      regex: /\b(?!bg|gb|nk|kn|nt|tn|zz)[a-ceghj-pr-tw-z][a-ceghj-npr-tw-z] ?\d{2} ?\d{2} ?\d{2} ?[a-d]\b/i,
      score: 0.5,
    },
  ],
});

export const ukPassportRecognizer = definePatternRecognizer({
  name: 'UkPassportRecognizer',
  entity: 'UK_PASSPORT',
  languages: EN,
  enabledByDefault: false,
  context: [
    'passport',
    'passport number',
    'travel document',
    'uk passport',
    'british passport',
    'her majesty',
    'his majesty',
    'hm passport',
    'hmpo',
  ],
  patterns: [{ name: 'UK Passport (weak)', regex: /\b[a-z]{2}\d{7}\b/i, score: 0.1 }],
});

export const ukPostcodeRecognizer = definePatternRecognizer({
  name: 'UkPostcodeRecognizer',
  entity: 'UK_POSTCODE',
  languages: EN,
  enabledByDefault: false,
  context: ['postcode', 'post code', 'postal code', 'zip', 'address', 'delivery', 'mailing', 'shipping', 'correspondence'],
  patterns: [
    {
      name: 'UK Postcode (weak)',
      regex: /\b(?:gir ?0aa|[a-pr-uwyz](?:\d{1,2}|[a-hk-y]\d{1,2}|\d[a-hjkps-uw]|[a-hk-y]\d[abehmnprv-y]) ?\d[abd-hjlnp-uw-z]{2})\b/i,
      score: 0.1,
    },
  ],
});

/** Surname block: letters then 9-padding, never all 9s. */
export const ukDrivingLicenceValidate = (text: string): boolean | null => (/^[a-z]{1,5}9{0,4}$/i.test(text.slice(0, 5)) ? null : false);

export const ukDrivingLicenceRecognizer = definePatternRecognizer({
  name: 'UkDrivingLicenceRecognizer',
  entity: 'UK_DRIVING_LICENCE',
  languages: EN,
  enabledByDefault: false,
  context: [
    'driving licence',
    'driving license',
    "driver's licence",
    "driver's license",
    'dvla',
    'dl number',
    'licence number',
    'license number',
  ],
  patterns: [
    {
      name: 'UK Driving Licence (medium)',
      regex: /\b[a-z9]{5}\d(?:0[1-9]|1[0-2]|5[1-9]|6[0-2])(?:0[1-9]|[12]\d|3[01])\d[a-z9]{2}[a-z0-9][a-z]{2}\b/i,
      score: 0.5,
    },
  ],
  validate: ukDrivingLicenceValidate,
});

/**
 * DVLA letter sets. Current format (2001–): memory tag of two letters without I, Q, Z; age identifier; three
 * random letters without I, Q (Z allowed). Prefix (1983–2001) and suffix (1963–1983) formats: the year letter
 * never I, O, Q, U, Z; the three-letter group without I, Q, Z (Z was Northern Ireland's).
 */
const TAG = '[a-hj-pr-y]';
const RANDOM = '[a-hj-pr-z]';
const YEAR_LETTER = '[a-hj-npr-tv-y]';
const B = '(?<![\\p{L}\\p{N}])';
const E = '(?![\\p{L}\\p{N}])';
const plate = (body: string): RegExp => new RegExp(`${B}${body}${E}`, 'iu');

/** Current-format plates: age identifier 02–29 or 51–79 → 1.0, else dropped; older formats kept. */
export const ukVehicleValidate = (text: string): boolean | null => {
  const current = /^[a-z]{2}(\d{2})[ -]?[a-z]{3}$/i.exec(text);
  if (!current) return null;
  const age = Number(current[1]);
  return (age >= 2 && age <= 29) || (age >= 51 && age <= 79);
};

export const ukVehicleRegistrationRecognizer = definePatternRecognizer({
  name: 'UkVehicleRegistrationRecognizer',
  entity: 'UK_VEHICLE_REGISTRATION',
  languages: EN,
  enabledByDefault: false,
  context: [
    'vehicle',
    'registration',
    'number plate',
    'licence plate',
    'license plate',
    'reg',
    'vrn',
    'dvla',
    'v5c',
    'logbook',
    'mot',
    'car',
    'insured vehicle',
  ],
  patterns: [
    { name: 'UK plate (current)', regex: plate(`${TAG}{2}\\d{2}[ -]?${RANDOM}{3}`), score: 0.3 },
    { name: 'UK plate (prefix)', regex: plate(`${YEAR_LETTER}[1-9]\\d{0,2}[ -]?${TAG}{3}`), score: 0.2 },
    { name: 'UK plate (suffix)', regex: plate(`${TAG}{3}[ -]?[1-9]\\d{0,2}[ -]?${YEAR_LETTER}`), score: 0.15 },
  ],
  validate: ukVehicleValidate,
});

export const ukRecognizers = [
  ukNhsRecognizer,
  ukNinoRecognizer,
  ukPassportRecognizer,
  ukPostcodeRecognizer,
  ukDrivingLicenceRecognizer,
  ukVehicleRegistrationRecognizer,
];
