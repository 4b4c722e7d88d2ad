/** India (en, opt-in): PAN, Aadhaar, vehicle registration, voter id, passport, GSTIN. */
import { verhoeffValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const EN = ['en'];
const STATES = new Set(
  'AN AP AR AS BR CH CG DD DL DN GA GJ HR HP JK JH KA KL LA LD MP MH MN ML MZ NL OD OR PY PB RJ SK TN TS TR UP UK UA WB'.split(' '),
);

/** Aadhaar: 12 digits, first ≥ 2, Verhoeff, not a palindrome. */
export const aadhaarValid = (text: string): boolean => {
  const d = text.replace(/[- :]/g, '');
  return /^[2-9]\d{11}$/.test(d) && verhoeffValid(d) && d !== [...d].reverse().join('');
};

/** State + RTO plate or diplomatic code → true; other shapes are kept at their base score. */
export const inVehicleValidate = (text: string): boolean | null => {
  const t = text.toUpperCase().replace(/[ -]/g, '');
  if (/^\d{1,3}(?:CD|CC|UN)[1-9]\d{0,3}$/.test(t)) return true;
  const m = /^([A-Z]{2})(\d{1,2})[A-Z]{1,3}\d{4}$/.exec(t);
  return m && STATES.has(m[1] as string) && Number(m[2]) >= 1 ? true : null;
};

/** GSTIN: state 01–37, embedded PAN shape, `Z` at position 14. */
export const gstinValid = (text: string): boolean => {
  const t = text.toUpperCase();
  const state = Number(t.slice(0, 2));
  return t.length === 15 && state >= 1 && state <= 37 && /^[A-Z]{5}\d{4}[A-Z]$/.test(t.slice(2, 12)) && t[13] === 'Z';
};

export const inRecognizers = [
  definePatternRecognizer({
    name: 'InPanRecognizer',
    entity: 'IN_PAN',
    languages: EN,
    enabledByDefault: false,
    context: ['permanent account number', 'pan'],
    patterns: [
      { name: 'PAN (High)', regex: /\b[a-z]{3}[abcfghjlpt][a-z]\d{4}[a-z]\b/i, score: 0.5 },
      { name: 'PAN (Medium)', regex: /\b[a-z]{5}\d{4}[a-z]\b/i, score: 0.1 },
      {
        name: 'PAN (Low)',
        regex: /\b(?=[a-z0-9]{0,9}[a-z])(?=(?:[a-z]{0,9}\d){4})[a-z0-9]{10}\b/i,
        score: 0.01,
      },
    ],
  }),
  definePatternRecognizer({
    name: 'InAadhaarRecognizer',
    entity: 'IN_AADHAAR',
    languages: EN,
    enabledByDefault: false,
    context: ['aadhaar', 'uidai'],
    patterns: [
      { name: 'AADHAAR (Very Weak)', regex: /\b\d{12}\b/, score: 0.01 },
      { name: 'AADHAAR (separated)', regex: /\b\d{4}[- :]\d{4}[- :]\d{4}\b/, score: 0.01 },
    ],
    validate: aadhaarValid,
  }),
  definePatternRecognizer({
    name: 'InVehicleRegistrationRecognizer',
    entity: 'IN_VEHICLE_REGISTRATION',
    languages: EN,
    enabledByDefault: false,
    context: ['rto', 'vehicle', 'plate', 'registration'],
    patterns: [
      // Presidio's nine shapes; numbers never start with 0 and the 4-digit serial is never 0000.
      { name: 'legacy letter + 1-3 digits (very weak)', regex: /\b[a-z][1-9]\d{0,2}\b/i, score: 0.01 },
      { name: 'legacy 2 letters + 1-4 digits (very weak)', regex: /\b[a-z]{2}[1-9]\d{0,3}\b/i, score: 0.01 },
      { name: 'legacy I + 5 digits + letter (very weak)', regex: /\bi(?!00000)\d{5}[a-z]\b/i, score: 0.01 },
      { name: '3 letters + 4 digits', regex: /\b[a-z]{3}(?!0000)\d{4}\b/i, score: 0.2 },
      { name: 'diplomatic', regex: /\b\d{1,3}[ -]?(?:cd|cc|un)[ -]?[1-9]\d{0,3}\b/i, score: 0.4 },
      { name: 'state + RTO + series', regex: /\b[a-z]{2}[ -]?\d{1,2}[ -]?[a-z]{1,3}[ -]?(?!0000)\d{4}\b/i, score: 0.5 },
      { name: 'Bharat series', regex: /\b[2-9]\d[ -]?bh[ -]?(?!0000)\d{4}[ -]?[a-hj-np-z]{1,2}\b/i, score: 0.85 },
      { name: 'armed forces', regex: /\b(?!00)\d{2}[ -]?[a-fhkprx][ -]?\d{6}[ -]?[a-z]\b/i, score: 0.85 },
    ],
    validate: inVehicleValidate,
  }),
  definePatternRecognizer({
    name: 'InVoterRecognizer',
    entity: 'IN_VOTER',
    languages: EN,
    enabledByDefault: false,
    context: ['voter', 'epic', 'elector photo identity card'],
    patterns: [
      { name: 'VOTER (medium)', regex: /\b[a-z][a-hj-np-z][a-z]\d{7}\b/i, score: 0.4 },
      { name: 'VOTER (weak)', regex: /\b[a-z]{3}\d{7}\b/i, score: 0.3 },
    ],
  }),
  definePatternRecognizer({
    name: 'InPassportRecognizer',
    entity: 'IN_PASSPORT',
    languages: EN,
    enabledByDefault: false,
    context: ['passport', 'indian passport', 'passport number'],
    patterns: [{ name: 'PASSPORT', regex: /\b[a-z][1-9]\d\s?\d{4}[1-9]\b/i, score: 0.1 }],
  }),
  definePatternRecognizer({
    name: 'InGstinRecognizer',
    entity: 'IN_GSTIN',
    languages: EN,
    enabledByDefault: false,
    context: ['gstin', 'gst', 'goods and services tax', 'tax identification', 'gst number', 'gst registration'],
    patterns: [
      { name: 'GSTIN (High)', regex: /\b(?:0[1-9]|[12]\d|3[0-7])[a-z]{3}[abcfghjlpt][a-z]\d{4}[a-z][1-9a-z]z[0-9a-z]\b/i, score: 0.8 },
      { name: 'GSTIN (Medium)', regex: /\b(?:0[1-9]|[12]\d|3[0-7])[a-z]{5}\d{4}[a-z][0-9a-z]z[0-9a-z]\b/i, score: 0.4 },
      { name: 'GSTIN (Low)', regex: /\b\d{2}[a-z0-9]{10}[0-9a-z]z[0-9a-z]\b/i, score: 0.1 },
    ],
    validate: gstinValid,
  }),
];
