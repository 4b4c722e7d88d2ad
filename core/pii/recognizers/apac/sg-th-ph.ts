/** Singapore (NRIC/FIN, UEN), Thailand (TNIN, `th`) and the Philippines (TIN); all opt-in. */
import { digitsOf, weightedSum } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const UEN_A = 'XMKECAWLJDB';
const UEN_B = 'ZKCMDNERGWH';
const UEN_ENTITY_TYPES = new Set(
  'LP LL FC PF RF MQ MM NB CC CS MB FM GS DP CP NR CM CD MD HS VH CH MH CL XL CX HC RP TU TC FB FN PA PB SS MC SM GA GB'.split(' '),
);

/** UEN formats A (business, 8 digits + letter) and B (local company, yyyy + 5 digits + letter) checksums. */
export const uenValidate = (text: string): boolean | null => {
  const t = text.toUpperCase();
  if (/^\d{8}[A-Z]$/.test(t)) return UEN_A[weightedSum(t, [10, 4, 9, 3, 8, 2, 7, 1]) % 11] === t[8];
  if (/^\d{9}[A-Z]$/.test(t)) {
    if (Number(t.slice(0, 4)) > new Date().getUTCFullYear()) return false;
    return UEN_B[weightedSum(t, [10, 8, 6, 4, 9, 7, 5, 3, 1]) % 11] === t[9];
  }
  // Format C: the entity-type whitelist is checked; its check letter is not computed (kept at 0.3).
  return UEN_ENTITY_TYPES.has(t.slice(3, 5)) ? null : false;
};

/** Thai national id: weights 13…2 on 12 digits, check = (11 − sum mod 11) mod 10. */
export const tninValid = (text: string): boolean =>
  /^\d{13}$/.test(text) && (11 - (weightedSum(text, [13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 10 === Number(text[12]);

/** PH TIN is invalid unless weights 9…2 on digits 1–8 give digit 9 (mod 11). */
export const phTinInvalid = (text: string): boolean => {
  const d = digitsOf(text);
  return weightedSum(d, [9, 8, 7, 6, 5, 4, 3, 2]) % 11 !== Number(d[8]);
};

export const sgThPhRecognizers = [
  definePatternRecognizer({
    name: 'SgFinRecognizer',
    entity: 'SG_NRIC_FIN',
    languages: ['en'],
    enabledByDefault: false,
    context: ['fin', 'fin#', 'nric', 'nric#'],
    patterns: [
      { name: 'Nric (weak)', regex: /\b[a-z]\d{7}[a-z]\b/i, score: 0.3 },
      { name: 'Nric (medium)', regex: /\b[stfgm]\d{7}[a-z]\b/i, score: 0.5 },
    ],
  }),
  definePatternRecognizer({
    name: 'SgUenRecognizer',
    entity: 'SG_UEN',
    languages: ['en'],
    enabledByDefault: false,
    context: ['uen', 'unique entity number', 'business registration', 'acra'],
    patterns: [
      { name: 'UEN format A', regex: /\b\d{8}[a-z]\b/i, score: 0.3 },
      { name: 'UEN format B', regex: /\b\d{9}[a-z]\b/i, score: 0.3 },
      { name: 'UEN format C', regex: /\b[tsr]\d{2}[a-z]{2}\d{4}[a-z]\b/i, score: 0.3 },
    ],
    validate: uenValidate,
  }),
  definePatternRecognizer({
    name: 'ThTninRecognizer',
    entity: 'TH_TNIN',
    languages: ['th'],
    enabledByDefault: false,
    context: ['thai national id', 'thai id number', 'tnin', 'เลขประจำตัวประชาชน', 'เลขบัตรประชาชน', 'รหัสปชช'],
    patterns: [{ name: 'TNIN', regex: /(?<!\d)[1-9](?:[1-8]\d|9[0-6])\d{10}(?!\d)/, score: 0.5 }],
    validate: tninValid,
  }),
  definePatternRecognizer({
    name: 'PhTinRecognizer',
    entity: 'PH_TIN',
    languages: ['en'],
    enabledByDefault: false,
    context: ['tin', 'taxpayer identification number', 'bir', 'taxpayer id', 'tax id', 'rdo', 'revenue district office'],
    patterns: [
      { name: 'PH TIN (dashed)', regex: /\b\d{3}-\d{3}-\d{3}(?:-\d{3})?\b/, score: 0.05 },
      { name: 'PH TIN (plain)', regex: /\b(?:\d{9}|\d{12})\b/, score: 0.01 },
    ],
    invalidate: phTinInvalid,
  }),
];
