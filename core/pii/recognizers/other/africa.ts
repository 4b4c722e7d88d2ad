/** Nigeria (NIN, vehicle registration) and South Africa (ID number); en, opt-in. */
import { isRealDate, luhnValid, verhoeffValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

/** SA ID: YYMMDD is a real date not in the future (century pivot = current year) and Luhn holds. */
export const zaIdValid = (text: string, now = new Date()): boolean => {
  if (!/^\d{13}$/.test(text) || !luhnValid(text)) return false;
  const yy = Number(text.slice(0, 2));
  const currentYear = now.getUTCFullYear();
  const year = 2000 + yy > currentYear ? 1900 + yy : 2000 + yy;
  const month = Number(text.slice(2, 4));
  const day = Number(text.slice(4, 6));
  return isRealDate(year, month, day) && Date.UTC(year, month - 1, day) <= now.getTime();
};

export const africaRecognizers = [
  definePatternRecognizer({
    name: 'NgNinRecognizer',
    entity: 'NG_NIN',
    languages: ['en'],
    enabledByDefault: false,
    context: [
      'nin',
      'national identification number',
      'national identity number',
      'nimc',
      'national identity',
      'nigeria id',
      'nigerian identification',
    ],
    patterns: [{ name: 'NIN (very weak)', regex: /\b\d{11}\b/, score: 0.01 }],
    validate: verhoeffValid,
  }),
  definePatternRecognizer({
    name: 'NgVehicleRegistrationRecognizer',
    entity: 'NG_VEHICLE_REGISTRATION',
    languages: ['en'],
    enabledByDefault: false,
    context: ['plate number', 'vehicle registration', 'license plate', 'number plate', 'plate', 'vehicle', 'registration'],
    patterns: [{ name: 'NG plate', regex: /\b[a-z]{3}[- ]?\d{3}[a-z]{2}\b/i, score: 0.5 }],
  }),
  definePatternRecognizer({
    name: 'ZaIdNumberRecognizer',
    entity: 'ZA_ID_NUMBER',
    languages: ['en'],
    enabledByDefault: false,
    context: ['id', 'identity', 'identity number', 'id number', 'south african id', 'rsa id', 'smart id', 'national id'],
    patterns: [{ name: 'ZA ID', regex: /\b\d{10}[012][89]\d\b/, score: 0.2 }],
    validate: (text) => zaIdValid(text),
  }),
];
