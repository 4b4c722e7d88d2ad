/** Spain (es): ES_NIF, ES_NIE (default), ES_PASSPORT (opt-in). */
import { definePatternRecognizer } from '../../pattern.ts';

const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** DNI/NIF control letter: number mod 23 into TRWAGMYFPDXBNJZSQVHLCKE. */
export const nifValid = (text: string): boolean => {
  const clean = text.replace('-', '').toUpperCase();
  const m = /^(\d{7,8})([A-Z])$/.exec(clean);
  return m !== null && LETTERS[Number(m[1]) % 23] === m[2];
};

/** NIE: X/Y/Z → 0/1/2 prefix, then the NIF rule. */
export const nieValid = (text: string): boolean => {
  const clean = text.replace('-', '').toUpperCase();
  const m = /^([XYZ])(\d{7,8})([A-Z])$/.exec(clean);
  if (!m || clean.length < 8 || clean.length > 10) return false;
  const number = Number(`${'XYZ'.indexOf(m[1] as string)}${m[2]}`);
  return LETTERS[number % 23] === m[3];
};

export const esRecognizers = [
  definePatternRecognizer({
    name: 'EsNifRecognizer',
    entity: 'ES_NIF',
    languages: ['es'],
    context: ['documento nacional de identidad', 'dni', 'nif', 'identificación'],
    patterns: [{ name: 'NIF', regex: /\b\d{7,8}-?[a-z]\b/i, score: 0.5 }],
    validate: nifValid,
  }),
  definePatternRecognizer({
    name: 'EsNieRecognizer',
    entity: 'ES_NIE',
    languages: ['es'],
    context: ['número de identificación de extranjero', 'nie'],
    patterns: [{ name: 'NIE', regex: /\b[x-z]?\d{7,8}-?[a-z]\b/i, score: 0.5 }],
    validate: nieValid,
  }),
  definePatternRecognizer({
    name: 'EsPassportRecognizer',
    entity: 'ES_PASSPORT',
    languages: ['es'],
    enabledByDefault: false,
    context: ['pasaporte', 'passport', 'número de pasaporte', 'passport number'],
    patterns: [{ name: 'Spanish passport (very weak)', regex: /\b[a-z]{3}\d{6}\b/i, score: 0.05 }],
  }),
];
