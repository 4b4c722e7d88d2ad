/** Australia (en, opt-in): ABN, ACN, TFN, Medicare — weighted checksums lift to 1.0. */
import { digitsOf, weightedSum } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const EN = ['en'];

/** ABN: subtract 1 from the first digit, weights 10,1,3,…,19, sum ≡ 0 (mod 89). */
export const abnValid = (text: string): boolean => {
  const d = digitsOf(text);
  if (d.length !== 11) return false;
  const adjusted = String(Number(d[0]) - 1) + d.slice(1);
  return Number(d[0]) >= 1 && weightedSum(adjusted, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0;
};
/** ACN: weights 8…1 on digits 1–8, check = (10 − sum mod 10) mod 10. */
export const acnValid = (text: string): boolean => {
  const d = digitsOf(text);
  return d.length === 9 && (10 - (weightedSum(d, [8, 7, 6, 5, 4, 3, 2, 1]) % 10)) % 10 === Number(d[8]);
};
/** TFN: weights 1,4,3,7,5,8,6,9,10, sum ≡ 0 (mod 11). */
export const tfnValid = (text: string): boolean => {
  const d = digitsOf(text);
  return d.length === 9 && weightedSum(d, [1, 4, 3, 7, 5, 8, 6, 9, 10]) % 11 === 0;
};
/** Medicare: weights 1,3,7,9,1,3,7,9 on digits 1–8, sum mod 10 = digit 9. */
export const medicareValid = (text: string): boolean => {
  const d = digitsOf(text);
  return d.length === 10 && weightedSum(d, [1, 3, 7, 9, 1, 3, 7, 9]) % 10 === Number(d[8]);
};

export const auRecognizers = [
  definePatternRecognizer({
    name: 'AuAbnRecognizer',
    entity: 'AU_ABN',
    languages: EN,
    enabledByDefault: false,
    context: ['australian business number', 'abn'],
    patterns: [
      { name: 'ABN (weak)', regex: /\b\d{2} \d{3} \d{3} \d{3}\b/, score: 0.1 },
      { name: 'ABN (very weak)', regex: /\b\d{11}\b/, score: 0.01 },
    ],
    validate: abnValid,
  }),
  definePatternRecognizer({
    name: 'AuAcnRecognizer',
    entity: 'AU_ACN',
    languages: EN,
    enabledByDefault: false,
    context: ['australian company number', 'acn'],
    patterns: [
      { name: 'ACN (weak)', regex: /\b\d{3} \d{3} \d{3}\b/, score: 0.1 },
      { name: 'ACN (very weak)', regex: /\b\d{9}\b/, score: 0.01 },
    ],
    validate: acnValid,
  }),
  definePatternRecognizer({
    name: 'AuTfnRecognizer',
    entity: 'AU_TFN',
    languages: EN,
    enabledByDefault: false,
    context: ['tax file number', 'tfn'],
    patterns: [
      { name: 'TFN (weak)', regex: /\b\d{3} \d{3} \d{3}\b/, score: 0.1 },
      { name: 'TFN (very weak)', regex: /\b\d{9}\b/, score: 0.01 },
    ],
    validate: tfnValid,
  }),
  definePatternRecognizer({
    name: 'AuMedicareRecognizer',
    entity: 'AU_MEDICARE',
    languages: EN,
    enabledByDefault: false,
    context: ['medicare'],
    patterns: [
      { name: 'Medicare (weak)', regex: /\b[2-6]\d{3} \d{5} \d\b/, score: 0.1 },
      { name: 'Medicare (very weak)', regex: /\b[2-6]\d{9}\b/, score: 0.01 },
    ],
    validate: medicareValid,
  }),
];
