/** Italy (it, all enabled by default): fiscal code, driver licence, VAT code, identity card, passport. */
import { digitsOf, luhnValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const IT = ['it'];
const ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];
const valueIndex = (ch: string): number => (/\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65);

/** Codice fiscale control letter of the first 15 characters (odd/even position tables, mod 26). */
export const fiscalCodeControl = (first15: string): string => {
  let sum = 0;
  [...first15.toUpperCase()].forEach((ch, i) => {
    const v = valueIndex(ch);
    sum += i % 2 === 0 ? (ODD[v] ?? 0) : v;
  });
  return String.fromCharCode(65 + (sum % 26));
};

export const itRecognizers = [
  definePatternRecognizer({
    name: 'ItFiscalCodeRecognizer',
    entity: 'IT_FISCAL_CODE',
    languages: IT,
    context: ['codice fiscale', 'cf'],
    patterns: [
      {
        name: 'Fiscal code (weak)',
        regex: /\b[a-z]{6}[0-9lmnp-v]{2}[abcdehlmprst][0-7lmnp-t][0-9lmnp-v][a-z][0-9lmnp-v]{3}[a-z]\b/i,
        score: 0.3,
      },
    ],
    // Presidio: a wrong control letter keeps the weak score (null) rather than dropping the hit.
    validate: (text) => (fiscalCodeControl(text.slice(0, 15)) === text.slice(15).toUpperCase() ? true : null),
  }),
  definePatternRecognizer({
    name: 'ItDriverLicenseRecognizer',
    entity: 'IT_DRIVER_LICENSE',
    languages: IT,
    context: ['patente', 'patente di guida', 'licenza', 'licenza di guida'],
    // Paper licence: 2 letters + 7 digits + letter; card licence (1996–): U1 + 7 characters from a set without
    // A, I, O, Q, V (digits allowed) + a letter, as the Motorizzazione issues them (Presidio's letter set).
    patterns: [{ name: 'Driver license', regex: /\b(?:[a-z]{2}\d{7}[a-z]|u1[b-hj-npr-uw-z0-9]{7}[a-z])\b/i, score: 0.2 }],
  }),
  definePatternRecognizer({
    name: 'ItVatCodeRecognizer',
    entity: 'IT_VAT_CODE',
    languages: IT,
    context: ['piva', 'partita iva', 'pi'],
    patterns: [{ name: 'IT VAT code', regex: /\b\d(?:[ _]?\d){10}\b/, score: 0.1 }],
    validate: (text) => {
      const d = digitsOf(text);
      return d.length === 11 && d !== '00000000000' && luhnValid(d);
    },
  }),
  definePatternRecognizer({
    name: 'ItIdentityCardRecognizer',
    entity: 'IT_IDENTITY_CARD',
    languages: IT,
    context: ['carta', 'identità', 'elettronica', 'cie', 'documento', 'riconoscimento', 'espatrio'],
    patterns: [
      { name: 'Paper-based (very weak)', regex: /\b[a-z]{2}\s?\d{7}\b/i, score: 0.01 },
      { name: 'CIE 2.0 (very weak)', regex: /\b\d{7}[a-z]{2}\b/i, score: 0.01 },
      { name: 'CIE 3.0 (very weak)', regex: /\b[a-z]{2}\d{5}[a-z]{2}\b/i, score: 0.01 },
    ],
  }),
  definePatternRecognizer({
    name: 'ItPassportRecognizer',
    entity: 'IT_PASSPORT',
    languages: IT,
    context: ['passaporto', 'elettronico', 'italiano', 'viaggio', 'viaggiare', 'estero', 'documento', 'dogana'],
    patterns: [{ name: 'Passport (very weak)', regex: /\b[a-z]{2}\d{7}\b/i, score: 0.01 }],
  }),
];
