/** Korea (`ko`, opt-in): resident/foreigner registration, business registration, driver licence, passport. */
import { weightedSum } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

const KO = ['ko'];
const RRN_WEIGHTS = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];

/** Tri-state like Presidio: checksum and region 00–95 → true; checksum miss → null; wrong length → false. */
const registrationValidate =
  (base: number) =>
  (text: string): boolean | null => {
    const d = text.replace('-', '');
    if (!/^\d{13}$/.test(d)) return false;
    const check = (base - (weightedSum(d, RRN_WEIGHTS) % 11)) % 10;
    return check === Number(d[12]) && Number(d.slice(7, 9)) <= 95 ? true : null;
  };
export const krRrnValidate = registrationValidate(11);
export const krFrnValidate = registrationValidate(13);

/** BRN: weights 1,3,7,1,3,7,1,3,5 plus ⌊5·d9/10⌋; check (10 − sum mod 10) mod 10. */
export const krBrnValid = (text: string): boolean => {
  const d = text.replace(/-/g, '');
  if (!/^\d{10}$/.test(d)) return false;
  const sum = weightedSum(d, [1, 3, 7, 1, 3, 7, 1, 3, 5]) + Math.floor((5 * Number(d[8])) / 10);
  return (10 - (sum % 10)) % 10 === Number(d[9]);
};

export const krRecognizers = [
  definePatternRecognizer({
    name: 'KrRrnRecognizer',
    entity: 'KR_RRN',
    languages: KO,
    enabledByDefault: false,
    context: [
      'korean rrn',
      'korean resident registration number',
      'resident registration number',
      'rrn',
      'rrn#',
      '주민등록번호',
      '주민번호',
    ],
    patterns: [{ name: 'RRN', regex: /(?<!\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-?[1-4]\d{6}(?!\d)/, score: 0.5 }],
    validate: krRrnValidate,
  }),
  definePatternRecognizer({
    name: 'KrFrnRecognizer',
    entity: 'KR_FRN',
    languages: KO,
    enabledByDefault: false,
    context: ['외국인등록번호', 'korean frn', 'frn', 'foreigner registration number', 'korean foreigner registration number', '외국인번호'],
    patterns: [{ name: 'FRN', regex: /(?<!\d)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-?[5-8]\d{6}(?!\d)/, score: 0.5 }],
    validate: krFrnValidate,
  }),
  definePatternRecognizer({
    name: 'KrBrnRecognizer',
    entity: 'KR_BRN',
    languages: KO,
    enabledByDefault: false,
    context: [
      '사업자등록번호',
      '사업자번호',
      '사업자',
      'brn',
      'business registration number',
      'korean brn',
      'business number',
      'tax registration number',
    ],
    patterns: [
      { name: 'BRN (dashed)', regex: /(?<!\d)\d{3}-\d{2}-\d{5}(?!\d)/, score: 0.1 },
      { name: 'BRN', regex: /(?<!\d)\d{10}(?!\d)/, score: 0.05 },
    ],
    validate: krBrnValid,
  }),
  definePatternRecognizer({
    name: 'KrDriverLicenseRecognizer',
    entity: 'KR_DRIVER_LICENSE',
    languages: KO,
    enabledByDefault: false,
    context: ['운전면허', '운전면허번호', '면허번호', 'korean driver license', "korean driver's license"],
    patterns: [{ name: 'Driver license', regex: /(?<!\d)\d{2}[- ]?\d{2}[- ]?\d{6}[- ]?\d{2}(?!\d)/, score: 0.05 }],
    validate: (text) => {
      const d = text.replace(/[- ]/g, '');
      const region = Number(d.slice(0, 2));
      return d.length === 12 && ((region >= 11 && region <= 26) || region === 28);
    },
  }),
  definePatternRecognizer({
    name: 'KrPassportRecognizer',
    entity: 'KR_PASSPORT',
    languages: KO,
    enabledByDefault: false,
    context: ['korean passport', 'korean passport number', '대한민국 여권', '여권', 'passport', 'passport number'],
    patterns: [
      { name: 'Passport (new)', regex: /\b[msrod]\d{3}[a-z]\d{4}\b/i, score: 0.1 },
      { name: 'Passport (old)', regex: /\b[msrod]\d{8}\b/i, score: 0.05 },
    ],
  }),
];
