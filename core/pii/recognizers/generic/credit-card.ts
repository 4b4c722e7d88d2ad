/** CREDIT_CARD: Presidio's single card pattern (0.3) lifted to 1.0 by Luhn; context per language. */
import { digitsOf, luhnValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';
import type { Recognizer } from '../../types.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'jcb', 'diners', 'maestro', 'instapayment'];
const CONTEXT_EN = ['credit', 'card', 'cc', ...BRANDS];
const CONTEXT_ES = ['tarjeta', 'credito', 'crédito', ...BRANDS];

const creditCard = (languages: readonly string[], context: readonly string[]): Recognizer =>
  definePatternRecognizer({
    name: 'CreditCardRecognizer',
    entity: 'CREDIT_CARD',
    languages,
    context,
    patterns: [
      {
        name: 'All Credit Cards (weak)',
        regex: /\b(?!1\d{12}(?!\d))(?:4\d{3}|5[0-5]\d{2}|6\d{3}|1\d{3}|3\d{3})[- ]?\d{3,4}[- ]?\d{3,4}[- ]?\d{3,5}\b/,
        score: 0.3,
      },
    ],
    validate: (text) => luhnValid(digitsOf(text)),
  });

export const creditCardRecognizers: Recognizer[] = [
  creditCard(
    GENERIC_LANGUAGES.filter((l) => l !== 'es'),
    CONTEXT_EN,
  ),
  creditCard(['es'], CONTEXT_ES),
];
