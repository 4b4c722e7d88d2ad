/** Canada (en, fr; opt-in): Social Insurance Number — Luhn only invalidates, a valid SIN keeps its base score. */
import { digitsOf, luhnValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

export const caRecognizers = [
  definePatternRecognizer({
    name: 'CaSinRecognizer',
    entity: 'CA_SIN',
    languages: ['en', 'fr'],
    enabledByDefault: false,
    context: [
      'sin',
      'sin number',
      'social insurance',
      'social insurance number',
      'canada',
      'nas',
      'numéro nas',
      "numéro d'assurance sociale",
      'assurance sociale',
    ],
    patterns: [
      { name: 'SIN (very weak)', regex: /\b[1-79]\d{8}\b/, score: 0.05 },
      { name: 'SIN (medium)', regex: /\b[1-79]\d{2}([- ])\d{3}\1\d{3}\b/, score: 0.5 },
    ],
    invalidate: (text) => !luhnValid(digitsOf(text)),
  }),
];
