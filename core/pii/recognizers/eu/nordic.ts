/** Finland (fi) and Sweden (sv) personal/organisation numbers; opt-in like in Presidio. */
import { isRealDate, luhnValid } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const FI_CONTROL = '0123456789ABCDEFHJKLMNPRSTUVWXY';
const FI_CENTURY: Record<string, number> = { '+': 1800, '-': 1900, Y: 1900, X: 1900, W: 1900, V: 1900, U: 1900 };
for (const c of 'ABCDEF') FI_CENTURY[c] = 2000;

/** Henkilötunnus: real date, control = table[(ddmmyy·nnn) mod 31]. */
export const hetuValid = (text: string): boolean => {
  const t = text.toUpperCase();
  const m = /^(\d{2})(\d{2})(\d{2})([-+A-FYXWVU])(\d{3})([0-9A-Y])$/.exec(t);
  if (!m) return false;
  const century = FI_CENTURY[m[4] as string] ?? 1900;
  if (!isRealDate(century + Number(m[3]), Number(m[2]), Number(m[1]))) return false;
  return FI_CONTROL[Number(`${m[1]}${m[2]}${m[3]}${m[5]}`) % 31] === m[6];
};

/** Personnummer / samordningsnummer: last 10 digits, month 1–12, day 1–31 (or +60), Luhn. */
export const personnummerValid = (text: string): boolean => {
  const d = text.replace(/[-+]/g, '').slice(-10);
  if (!/^\d{10}$/.test(d)) return false;
  const month = Number(d.slice(2, 4));
  let day = Number(d.slice(4, 6));
  if (day > 60) day -= 60;
  return month >= 1 && month <= 12 && day >= 1 && day <= 31 && luhnValid(d);
};

/** Organisationsnummer: 10 digits, third digit ≥ 2, Luhn. */
export const organisationsnummerValid = (text: string): boolean => {
  const d = text.replace('-', '');
  return /^\d{10}$/.test(d) && Number(d[2]) >= 2 && luhnValid(d);
};

export const nordicRecognizers = [
  definePatternRecognizer({
    name: 'FiPersonalIdentityCodeRecognizer',
    entity: 'FI_PERSONAL_IDENTITY_CODE',
    languages: ['fi'],
    enabledByDefault: false,
    context: ['hetu', 'henkilötunnus', 'personbeteckningen', 'personal identity code'],
    patterns: [
      { name: 'Finnish PIC (Medium)', regex: /\b\d{6}[-+a-fyxwvu]\d{3}[0-9a-y]\b/i, score: 0.5 },
      { name: 'Finnish PIC (Very Weak)', regex: /\d{6}[-+a-fyxwvu]\d{3}[0-9a-y]/i, score: 0.1 },
    ],
    validate: hetuValid,
  }),
  definePatternRecognizer({
    name: 'SePersonnummerRecognizer',
    entity: 'SE_PERSONNUMMER',
    languages: ['sv'],
    enabledByDefault: false,
    context: ['personnummer', 'svenskt personnummer', 'svensk id', 'ssn', 'personal identity number', 'samordningsnummer'],
    patterns: [
      { name: 'Personnummer (bounded)', regex: /\b(?:\d{8}|\d{6})[-+]?\d{4}\b/, score: 0.5 },
      { name: 'Personnummer (unbounded)', regex: /(?:\d{8}|\d{6})[-+]?\d{4}/, score: 0.1 },
    ],
    validate: personnummerValid,
  }),
  definePatternRecognizer({
    name: 'SeOrganisationsnummerRecognizer',
    entity: 'SE_ORGANISATIONSNUMMER',
    languages: ['sv'],
    enabledByDefault: false,
    context: ['organisationsnummer', 'orgnr', 'org nr', 'företagsnummer'],
    patterns: [
      { name: 'Organisationsnummer (bounded)', regex: /\b\d{6}-?\d{4}\b/, score: 0.6 },
      { name: 'Organisationsnummer (unbounded)', regex: /\d{6}-?\d{4}/, score: 0.2 },
    ],
    validate: organisationsnummerValid,
  }),
];
