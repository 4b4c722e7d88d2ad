/** Poland (pl: PESEL, default) and Turkey (tr: national id, licence plate; opt-in). */
import { digitsOf, weightedSum } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

/** PESEL: weights 1,3,7,9,1,3,7,9,1,3; check = (10 − sum mod 10) mod 10. */
export const peselValid = (text: string): boolean =>
  /^\d{11}$/.test(text) && (10 - (weightedSum(text, [1, 3, 7, 9, 1, 3, 7, 9, 1, 3]) % 10)) % 10 === Number(text[10]);

/** T.C. Kimlik No: d10 and d11 rules. */
export const trNationalIdValid = (text: string): boolean => {
  const d = digitsOf(text);
  if (!/^[1-9]\d{10}$/.test(d)) return false;
  const n = [...d].map(Number) as number[];
  const odd = (n[0] ?? 0) + (n[2] ?? 0) + (n[4] ?? 0) + (n[6] ?? 0) + (n[8] ?? 0);
  const even = (n[1] ?? 0) + (n[3] ?? 0) + (n[5] ?? 0) + (n[7] ?? 0);
  const d10 = (((7 * odd - even) % 10) + 10) % 10;
  const d11 = n.slice(0, 10).reduce((a, b) => a + b, 0) % 10;
  return d10 === n[9] && d11 === n[10];
};

export const plTrRecognizers = [
  definePatternRecognizer({
    name: 'PlPeselRecognizer',
    entity: 'PL_PESEL',
    languages: ['pl'],
    context: ['pesel'],
    patterns: [{ name: 'PESEL', regex: /\d{2}(?:[02468][1-9]|[13579][012])(?:0[1-9]|[12]\d|3[01])\d{5}/, score: 0.4 }],
    validate: peselValid,
  }),
  definePatternRecognizer({
    name: 'TrNationalIdRecognizer',
    entity: 'TR_NATIONAL_ID',
    languages: ['tr'],
    enabledByDefault: false,
    context: ['tc kimlik', 'kimlik no', 'kimlik numarası', 'tckn', 'tc no', 'nüfus cüzdanı', 'national id', 'turkish id', 'türk kimlik'],
    patterns: [{ name: 'TCKN (weak)', regex: /\b[1-9]\d{10}\b/, score: 0.3 }],
    validate: trNationalIdValid,
  }),
  definePatternRecognizer({
    name: 'TrLicensePlateRecognizer',
    entity: 'TR_LICENSE_PLATE',
    languages: ['tr'],
    enabledByDefault: false,
    context: [
      'plaka',
      'araç plakası',
      'plaka numarası',
      'kayıt plakası',
      'tr plaka',
      'license plate',
      'number plate',
      'plate',
      'taşıt plakası',
      'kayıt',
    ],
    patterns: [
      { name: 'TR plate', regex: /\b\d{2} ?[a-pr-vyz]{1,3} ?\d{2,4}\b/i, score: 0.3 },
      { name: 'TR plate (hyphenated)', regex: /\b\d{2}-[a-pr-vyz]{1,3}-\d{2,4}\b/i, score: 0.3 },
    ],
    validate: (text) => {
      const province = Number(text.slice(0, 2));
      return province >= 1 && province <= 81;
    },
  }),
];
