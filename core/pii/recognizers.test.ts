/**
 * Published example identifiers (issuer documentation, Wikipedia, BIPs) — independent of our own generators —
 * must validate to 1.0, and a one-digit change must drop them (or, for invalidate-only types, keep them out).
 */
import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';
import { dateRecognizer } from './recognizers/generic/date.ts';

const engine = createPiiEngine();
const scoreOf = (entity: string, language: string, value: string): number | undefined => {
  const text = `ref ${value} end`;
  const hit = engine.scan(text, { language, entities: [entity] }).entities.find((f) => [...text].slice(f.start, f.end).join('') === value);
  return hit?.score;
};

const PUBLISHED: Array<[string, string, string]> = [
  ['CREDIT_CARD', 'en', '4111111111111111'],
  ['CREDIT_CARD', 'en', '378282246310005'],
  ['IBAN_CODE', 'en', 'DE89 3704 0044 0532 0130 00'],
  ['IBAN_CODE', 'en', 'GB82 WEST 1234 5698 7654 32'],
  ['CRYPTO', 'en', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT'],
  ['CRYPTO', 'en', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'],
  ['UK_NHS', 'en', '943 476 5919'],
  ['MEDICAL_LICENSE', 'en', 'AB1234563'],
  ['US_NPI', 'en', '1234567893'],
  ['ABA_ROUTING_NUMBER', 'en', '011000015'],
  ['AU_ABN', 'en', '51 824 753 556'],
  ['AU_ACN', 'en', '005 499 981'],
  ['AU_TFN', 'en', '123 456 782'],
  ['IN_AADHAAR', 'en', '234123412346'],
  ['ZA_ID_NUMBER', 'en', '8001015009087'],
  ['PIPL_NATIONAL_ID', 'en', '11010519491231002X'],
  ['ES_NIF', 'es', '12345678Z'],
  ['ES_NIE', 'es', 'X1234567L'],
  ['IT_FISCAL_CODE', 'it', 'RSSMRA85T10A562S'],
  ['IT_VAT_CODE', 'it', '00743110157'],
  ['PL_PESEL', 'pl', '44051401359'],
  ['FI_PERSONAL_IDENTITY_CODE', 'fi', '131052-308T'],
  ['SE_PERSONNUMMER', 'sv', '811228-9874'],
  ['SE_ORGANISATIONSNUMMER', 'sv', '556036-0793'],
  ['TR_NATIONAL_ID', 'tr', '10000000146'],
  ['DE_TAX_ID', 'de', '86095742719'],
  ['DE_VAT_ID', 'de', 'DE136695976'],
  ['DE_PASSPORT', 'de', 'C01X00T478'],
  ['DE_HEALTH_INSURANCE', 'de', 'A123456780'],
  ['DE_SOCIAL_SECURITY', 'de', '65170839J003'],
  ['KR_RRN', 'ko', '900101-1234568'],
  ['TH_TNIN', 'th', '1101700230708'],
];

describe('published example identifiers', () => {
  for (const [entity, language, value] of PUBLISHED) {
    it(`${entity} ${value} validates to 1.0`, () => {
      expect(scoreOf(entity, language, value)).toBe(1);
    });
  }

  it('a one-digit change breaks checksum-validated types', () => {
    for (const [entity, language, value] of PUBLISHED) {
      if (['IT_FISCAL_CODE', 'DE_VAT_ID', 'KR_RRN'].includes(entity)) continue; // Presidio keeps these at base score
      const i = value.search(/\d(?=\D*$)/);
      const changed = value.slice(0, i) + String((Number(value[i]) + 1) % 10) + value.slice(i + 1);
      expect(scoreOf(entity, language, changed), `${entity} ${changed}`).not.toBe(1);
    }
  });

  it('keeps Presidio tri-state semantics for invalidate-only and keep-on-miss types', () => {
    expect(scoreOf('CA_SIN', 'en', '130 692 544')).toBe(0.5);
    expect(scoreOf('CA_SIN', 'en', '130 692 545')).toBeUndefined();
    expect(scoreOf('IT_FISCAL_CODE', 'it', 'RSSMRA85T10A562T')).toBe(0.3);
    expect(scoreOf('DE_VAT_ID', 'de', 'DE136695977')).toBe(0.5);
    expect(scoreOf('KR_RRN', 'ko', '900101-1234567')).toBe(0.5);
  });
});

describe('DateRecognizer in each of Presidio’s date forms (each pattern runs only on texts with its separator)', () => {
  it.each([
    ['2020-05-20T14:30:00Z', 'ISO 8601'],
    ['5/20/2020', 'mm/dd/yyyy or mm/dd/yy'],
    ['20/5/2020', 'dd/mm/yyyy or dd/mm/yy'],
    ['2020/5/20', 'yyyy/mm/dd'],
    ['5-20-2020', 'mm-dd-yyyy'],
    ['20-5-2020', 'dd-mm-yyyy'],
    ['2020-5-20', 'yyyy-mm-dd'],
    ['20.05.20', 'dd.mm.yyyy or dd.mm.yy'],
    ['20-May-2020', 'dd-MMM-yyyy or dd-MMM-yy'],
    ['May-2020', 'MMM-yyyy or MMM-yy'],
    ['DEC-99', 'MMM-yyyy or MMM-yy'],
    ['20-may', 'dd-MMM'],
    ['5/2020', 'mm/yyyy or m/yyyy'],
    ['12/99', 'mm/yy or m/yy'],
  ])('%s: %s', (value, pattern) => {
    const text = `ref ${value} end`;
    const whole = dateRecognizer
      .analyze({ text, language: 'en' })
      .filter((f) => text.slice(f.start, f.end) === value)
      .map((f) => f.explanation?.pattern);
    expect(whole).toContain(pattern);
  });
});
