/**
 * Labelled accuracy corpus, generated (seeded) rather than copied: per entity type, positives embed a valid
 * value in a neutral sentence; negatives hold near-misses (broken checksum, impossible octet, wrong shape…).
 * `checksum` marks types whose detection is decided by a checksum/registry check (gated at 0.95).
 */
import { corruptDigit, digits, int, pick, type Rng, seededRng } from './generators.ts';
import * as g from './generators.ts';
import * as m from './more-generators.ts';

export type AccuracyCase = { readonly text: string; readonly expected: string | null };
export type EntityCorpus = {
  readonly entity: string;
  readonly language: string;
  readonly checksum: boolean;
  readonly cases: readonly AccuracyCase[];
};

type Spec = {
  entity: string;
  language?: string;
  checksum?: boolean;
  positive: (rng: Rng) => string;
  /** Defaults to a corrupted positive (checksum types). */
  negative?: (rng: Rng) => string;
};

const TEMPLATES = [
  'Reference: {v}.',
  'The value {v} was entered in the form.',
  'Please check {v} before Monday.',
  'Record {v} updated',
  '{v}',
];
const L = (rng: Rng, n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + int(rng, 0, 25))).join('');
const hex = (rng: Rng) => int(rng, 0, 255).toString(16).padStart(2, '0');
const p2 = (n: number) => String(n).padStart(2, '0');

const DEFAULT_EN: Spec[] = [
  { entity: 'CREDIT_CARD', checksum: true, positive: g.creditCard },
  { entity: 'CRYPTO', checksum: true, positive: g.bitcoinAddress },
  {
    entity: 'EMAIL_ADDRESS',
    checksum: true,
    positive: (r) =>
      `${pick(r, ['anna', 'li.wei', 'j_doe', 'max+tag'])}${int(r, 1, 99)}@${pick(r, ['example.com', 'mail.co.uk', 'uni.edu', 'firma.de', 'shop.com.br'])}`,
    negative: (r) =>
      pick(r, [
        `user${int(r, 1, 99)}@localhost`,
        `name@example.notatld${int(r, 1, 9)}`,
        `a${int(r, 1, 9)}@b`,
        `@handle${int(r, 1, 99)}`,
        `john at example dot com`,
      ]),
  },
  { entity: 'IBAN_CODE', checksum: true, positive: g.iban },
  { entity: 'MEDICAL_LICENSE', checksum: true, positive: g.dea },
  { entity: 'UK_NHS', checksum: true, positive: g.nhs },
  { entity: 'PIPL_NATIONAL_ID', checksum: true, positive: g.piplId },
  {
    entity: 'DATE_TIME',
    positive: (r) => {
      const [y, mo, d] = [int(r, 1950, 2030), int(r, 1, 12), int(r, 1, 28)];
      return pick(r, [
        `${p2(mo)}/${p2(d)}/${y}`,
        `${y}-${p2(mo)}-${p2(d)}`,
        `${p2(d)}.${p2(mo)}.${y}`,
        `${p2(d)}-Mar-${y}`,
        `${y}-${p2(mo)}-${p2(d)}T10:${p2(int(r, 0, 59))}:00Z`,
      ]);
    },
    negative: (r) =>
      pick(r, [
        `version ${int(r, 1, 9)}.${int(r, 10, 20)}`,
        `room ${int(r, 100, 999)}B`,
        `price ${int(r, 1, 99)}.99`,
        `${int(r, 40, 99)}/${int(r, 40, 99)}/2020`,
        `build v${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}`,
      ]),
  },
  {
    entity: 'IP_ADDRESS',
    positive: (r) =>
      r() < 0.6
        ? `${int(r, 1, 223)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`
        : `2001:db8:${hex(r)}${hex(r)}::${int(r, 1, 9)}`,
    negative: (r) =>
      pick(r, [
        `${int(r, 256, 999)}.1.2.3`,
        `${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}`,
        `${p2(int(r, 0, 23))}:${p2(int(r, 10, 59))}:${p2(int(r, 10, 59))}`,
        `1.2.3.4.${int(r, 5, 9)}`,
        `version ${int(r, 1, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)}`,
      ]),
  },
  {
    entity: 'MAC_ADDRESS',
    positive: (r) => {
      const s = pick(r, [':', '-']);
      return r() < 0.8 ? Array.from({ length: 6 }, () => hex(r)).join(s) : `${hex(r)}${hex(r)}.${hex(r)}${hex(r)}.${hex(r)}${hex(r)}`;
    },
    negative: (r) =>
      pick(r, [
        Array.from({ length: 5 }, () => hex(r)).join(':'),
        `${hex(r)}:${hex(r)}-${hex(r)}:${hex(r)}:${hex(r)}:${hex(r)}`,
        'ff:ff:ff:ff:ff:ff',
        '00-00-00-00-00-00',
        `gg:${hex(r)}:${hex(r)}:${hex(r)}:${hex(r)}:${hex(r)}`,
      ]),
  },
  {
    entity: 'PHONE_NUMBER',
    positive: (r) =>
      pick(r, [
        `(${pick(r, ['212', '415', '617', '303'])}) ${int(r, 234, 899)}-${digits(r, 4)}`,
        `+44 20 7946 0${digits(r, 3)}`,
        `030 ${int(r, 2, 9)}${digits(r, 6)}`,
        `+33 1 ${int(r, 20, 99)} ${int(r, 10, 99)} ${int(r, 10, 99)} ${int(r, 10, 99)}`,
        `0${int(r, 6, 7)} ${int(r, 10, 99)} ${int(r, 10, 99)} ${int(r, 10, 99)} ${int(r, 10, 99)}`,
      ]),
    negative: (r) =>
      pick(r, [
        `code ${int(r, 100, 99999)}`,
        'call 911',
        `ext. ${int(r, 100, 9999)}`,
        `${int(r, 2000, 2030)}-${p2(int(r, 1, 12))}-${p2(int(r, 1, 28))}`,
        `order ${int(r, 1, 9)}-${int(r, 1, 9)}-${int(r, 1, 9)}`,
      ]),
  },
  {
    entity: 'URL',
    positive: (r) =>
      pick(r, [
        `https://www.example.com/p/${int(r, 1, 999)}`,
        `example${int(r, 1, 99)}.org`,
        `http://sub.domain.co.uk/x?y=${int(r, 1, 9)}`,
        `www.shop${int(r, 1, 99)}.de`,
        `https://docs.example.io/a/b`,
      ]),
    negative: (r) =>
      pick(r, [
        `notes${int(r, 1, 99)}.txt`,
        `data${int(r, 1, 99)}.json`,
        `image${int(r, 1, 99)}.png`,
        `report${int(r, 1, 99)}.docx`,
        `version ${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}`,
      ]),
  },
  {
    entity: 'US_BANK_NUMBER',
    positive: (r) => digits(r, int(r, 8, 17)),
    negative: (r) =>
      pick(r, [
        digits(r, int(r, 3, 7)),
        `A${digits(r, 9)}B`,
        `${digits(r, 4)}-${digits(r, 4)}`,
        'no account here',
        `${digits(r, 18)}${int(r, 1, 9)}`,
      ]),
  },
  {
    entity: 'US_DRIVER_LICENSE',
    positive: (r) => `${L(r, 1)}${digits(r, int(r, 4, 9))}`,
    negative: (r) => pick(r, [`${digits(r, 5)}`, 'hello world', `${L(r, 3)}`, `${digits(r, 3)}-${digits(r, 2)}`, 'the licence office']),
  },
  {
    entity: 'US_ITIN',
    positive: (r) => `9${digits(r, 2)}-${pick(r, ['70', '78', '88', '90', '94'])}-${digits(r, 4)}`,
    negative: (r) => `${pick(r, ['9', '8'])}${digits(r, 2)}-${pick(r, ['45', '66', '69', '89', '93'])}-${digits(r, 4)}`,
  },
  {
    entity: 'US_PASSPORT',
    positive: (r) => (r() < 0.5 ? digits(r, 9) : `${L(r, 1)}${digits(r, 8)}`),
    negative: (r) => pick(r, [digits(r, 8), digits(r, 10), `${L(r, 2)}${digits(r, 8)}`, `${L(r, 1)}${digits(r, 7)}`, 'passport office']),
  },
  {
    entity: 'US_SSN',
    positive: g.ssn,
    negative: (r) =>
      pick(r, [
        `000-${p2(int(r, 10, 99))}-${digits(r, 4)}`,
        `666-${p2(int(r, 10, 99))}-${digits(r, 4)}`,
        `${int(r, 100, 599)}-00-${digits(r, 4)}`,
        `${int(r, 100, 599)}-${p2(int(r, 10, 99))}-0000`,
        `${int(r, 100, 599)}-${p2(int(r, 10, 99))} ${digits(r, 4)}`,
      ]),
  },
];

const OTHERS: Spec[] = [
  { entity: 'US_NPI', checksum: true, positive: g.npi },
  { entity: 'ABA_ROUTING_NUMBER', checksum: true, positive: g.aba },
  {
    entity: 'US_MBI',
    positive: (r) => `${int(r, 1, 9)}EG4-TE5-MK7${int(r, 1, 9)}`,
    negative: (r) => `${int(r, 1, 9)}SG4-TE5-MK7${int(r, 1, 9)}`,
  },
  {
    entity: 'UK_NINO',
    positive: (r) =>
      `${pick(r, ['AB', 'JG', 'CE'])} ${p2(int(r, 10, 99))} ${p2(int(r, 10, 99))} ${p2(int(r, 10, 99))} ${pick(r, ['A', 'B', 'C', 'D'])}`,
    negative: (r) => `${pick(r, ['BG', 'GB', 'ZZ', 'QQ'])} ${p2(int(r, 10, 99))} ${p2(int(r, 10, 99))} ${p2(int(r, 10, 99))} A`,
  },
  { entity: 'UK_PASSPORT', positive: (r) => `${L(r, 2)}${digits(r, 7)}`, negative: (r) => `${L(r, 2)}${digits(r, 5)}` },
  {
    entity: 'UK_POSTCODE',
    positive: (r) => pick(r, ['SW1A 1AA', 'EC1A 1BB', 'M1 1AE', 'B33 8TH', 'CR2 6XH', 'DN55 1PT']),
    negative: (r) => pick(r, ['QQ1 1AA', 'SW1A 1CA', '12345', 'ABC DEF']),
  },
  {
    entity: 'UK_DRIVING_LICENCE',
    positive: (r) =>
      `${pick(r, ['MORGA', 'SMITH', 'JONES', 'LI999'])}${int(r, 5, 9)}${pick(r, ['05', '57', '12'])}${p2(int(r, 10, 28))}${int(r, 0, 9)}${L(r, 2)}${int(r, 0, 9)}${L(r, 2)}`,
    negative: (r) => `99999${int(r, 5, 9)}0510${int(r, 0, 9)}AB${int(r, 0, 9)}CD`,
  },
  {
    entity: 'UK_VEHICLE_REGISTRATION',
    positive: (r) => `${L(r, 2)}${pick(r, ['05', '19', '23', '51', '72'])} ${L(r, 3)}`,
    negative: (r) => `${L(r, 2)}${pick(r, ['00', '01', '30', '45', '88'])} ${L(r, 3)}`,
  },
  { entity: 'AU_ABN', checksum: true, positive: g.abn },
  { entity: 'AU_ACN', checksum: true, positive: m.acn },
  { entity: 'AU_TFN', checksum: true, positive: g.tfn },
  { entity: 'AU_MEDICARE', checksum: true, positive: m.auMedicare, negative: (r) => corruptDigit(m.auMedicare(r), r, 8) },
  {
    entity: 'SG_NRIC_FIN',
    positive: (r) => `${pick(r, ['S', 'T', 'F', 'G'])}${digits(r, 7)}${L(r, 1)}`,
    negative: (r) => `${pick(r, ['S', 'T'])}${digits(r, 6)}${L(r, 1)}`,
  },
  { entity: 'SG_UEN', checksum: true, positive: m.sgUenA },
  { entity: 'IN_PAN', positive: (r) => `${L(r, 3)}P${L(r, 1)}${digits(r, 4)}${L(r, 1)}`, negative: (r) => `${L(r, 3)}${digits(r, 4)}` },
  { entity: 'IN_AADHAAR', checksum: true, positive: g.aadhaar },
  {
    entity: 'IN_VEHICLE_REGISTRATION',
    positive: (r) => `${pick(r, ['MH', 'KA', 'DL', 'TN'])} ${p2(int(r, 1, 20))} ${L(r, 2)} ${digits(r, 4)}`,
    negative: () => 'the vehicle was red',
  },
  {
    entity: 'IN_VOTER',
    positive: (r) => `${L(r, 1)}${pick(r, ['B', 'C', 'X'])}${L(r, 1)}${digits(r, 7)}`,
    negative: (r) => `${L(r, 3)}${digits(r, 5)}`,
  },
  {
    entity: 'IN_PASSPORT',
    positive: (r) => `${L(r, 1)}${int(r, 1, 9)}${int(r, 0, 9)}${digits(r, 4)}${int(r, 1, 9)}`,
    negative: (r) => `${L(r, 1)}0${digits(r, 5)}`,
  },
  {
    entity: 'IN_GSTIN',
    checksum: true,
    positive: m.gstin,
    negative: (r) => `${int(r, 40, 99)}${L(r, 5)}${digits(r, 4)}${L(r, 1)}1Z${int(r, 0, 9)}`,
  },
  { entity: 'PH_TIN', checksum: true, positive: m.phTin, negative: (r) => corruptDigit(m.phTin(r), r, 8) },
  { entity: 'NG_NIN', checksum: true, positive: g.ngNin },
  {
    entity: 'NG_VEHICLE_REGISTRATION',
    positive: (r) => `${L(r, 3)}-${digits(r, 3)}${L(r, 2)}`,
    negative: (r) => `${L(r, 2)}-${digits(r, 3)}`,
  },
  { entity: 'ZA_ID_NUMBER', checksum: true, positive: g.zaId },
  { entity: 'CA_SIN', checksum: true, positive: g.caSin },
  { entity: 'ES_NIF', language: 'es', checksum: true, positive: g.esNif },
  { entity: 'ES_NIE', language: 'es', checksum: true, positive: g.esNie },
  { entity: 'ES_PASSPORT', language: 'es', positive: (r) => `${L(r, 3)}${digits(r, 6)}`, negative: (r) => `${L(r, 2)}${digits(r, 4)}` },
  { entity: 'IT_FISCAL_CODE', language: 'it', positive: g.itFiscalCode, negative: (r) => `${L(r, 4)}${digits(r, 6)}` },
  { entity: 'IT_VAT_CODE', language: 'it', checksum: true, positive: g.itVat },
  {
    entity: 'IT_DRIVER_LICENSE',
    language: 'it',
    positive: (r) => `${L(r, 2)}${digits(r, 7)}${L(r, 1)}`,
    negative: (r) => `${L(r, 2)}${digits(r, 5)}${L(r, 1)}`,
  },
  {
    entity: 'IT_IDENTITY_CARD',
    language: 'it',
    positive: (r) => `${L(r, 2)}${digits(r, 5)}${L(r, 2)}`,
    negative: (r) => `${L(r, 1)}${digits(r, 4)}`,
  },
  { entity: 'IT_PASSPORT', language: 'it', positive: (r) => `${L(r, 2)}${digits(r, 7)}`, negative: (r) => `${L(r, 2)}${digits(r, 4)}` },
  { entity: 'PL_PESEL', language: 'pl', checksum: true, positive: g.pesel },
  { entity: 'FI_PERSONAL_IDENTITY_CODE', language: 'fi', checksum: true, positive: g.hetu },
  { entity: 'SE_PERSONNUMMER', language: 'sv', checksum: true, positive: g.personnummer },
  { entity: 'SE_ORGANISATIONSNUMMER', language: 'sv', checksum: true, positive: g.organisationsnummer },
  { entity: 'TR_NATIONAL_ID', language: 'tr', checksum: true, positive: g.trNationalId },
  {
    entity: 'TR_LICENSE_PLATE',
    language: 'tr',
    positive: (r) => `${p2(int(r, 1, 81))} ${L(r, 2).replace(/[QWX]/g, 'A')} ${digits(r, 3)}`,
    negative: (r) => `${int(r, 82, 99)} ${L(r, 2).replace(/[QWX]/g, 'A')} ${digits(r, 3)}`,
  },
  { entity: 'DE_TAX_ID', language: 'de', checksum: true, positive: g.deTaxId },
  { entity: 'DE_VAT_ID', language: 'de', positive: g.deVatId, negative: (r) => `DE${digits(r, 7)}` },
  { entity: 'DE_PASSPORT', language: 'de', checksum: true, positive: m.deDocument },
  { entity: 'DE_ID_CARD', language: 'de', checksum: true, positive: m.deDocument },
  { entity: 'DE_SOCIAL_SECURITY', language: 'de', checksum: true, positive: m.deRvnr },
  { entity: 'DE_HEALTH_INSURANCE', language: 'de', checksum: true, positive: m.deKvnr },
  { entity: 'DE_LANR', language: 'de', checksum: true, positive: m.deLanr, negative: (r) => corruptDigit(m.deLanr(r), r, 6) },
  { entity: 'DE_BSNR', language: 'de', positive: (r) => `${int(r, 1, 9)}${digits(r, 8)}`, negative: () => '000000000' },
  {
    entity: 'DE_TAX_NUMBER',
    language: 'de',
    positive: (r) => `${digits(r, 3)}/${digits(r, 3)}/${digits(r, 5)}`,
    negative: (r) => `${digits(r, 3)}/${digits(r, 2)}`,
  },
  {
    entity: 'DE_KFZ',
    language: 'de',
    positive: (r) => `${pick(r, ['B', 'M', 'HH', 'KÖ'])}-${L(r, 2)} ${int(r, 1, 9999)}`,
    negative: (r) => `${digits(r, 4)} ${L(r, 2)}`,
  },
  { entity: 'DE_HANDELSREGISTER', language: 'de', positive: (r) => `HRB ${int(r, 1, 999999)}`, negative: (r) => `HRX ${int(r, 1, 9999)}` },
  {
    entity: 'DE_PLZ',
    language: 'de',
    positive: (r) => `${int(r, 10, 98)}${digits(r, 3)}`,
    negative: (r) => pick(r, ['01000', '99999', digits(r, 4)]),
  },
  {
    entity: 'DE_FUEHRERSCHEIN',
    language: 'de',
    positive: (r) => `${L(r, 2)}${digits(r, 8)}${int(r, 0, 9)}`,
    negative: (r) => `${L(r, 2)}${digits(r, 5)}`,
  },
  { entity: 'KR_RRN', language: 'ko', positive: (r) => g.krRrn(r), negative: (r) => `${digits(r, 6)}-9${digits(r, 6)}` },
  { entity: 'KR_FRN', language: 'ko', positive: (r) => g.krRrn(r, true), negative: (r) => `${digits(r, 6)}-9${digits(r, 6)}` },
  { entity: 'KR_BRN', language: 'ko', checksum: true, positive: m.krBrn },
  {
    entity: 'KR_DRIVER_LICENSE',
    language: 'ko',
    checksum: true,
    positive: (r) => `${int(r, 11, 26)}-${p2(int(r, 0, 99))}-${digits(r, 6)}-${digits(r, 2)}`,
    negative: (r) => `${int(r, 30, 99)}-${p2(int(r, 0, 99))}-${digits(r, 6)}-${digits(r, 2)}`,
  },
  {
    entity: 'KR_PASSPORT',
    language: 'ko',
    positive: (r) => `M${digits(r, 3)}${L(r, 1)}${digits(r, 4)}`,
    negative: (r) => `Q${digits(r, 3)}${L(r, 1)}${digits(r, 4)}`,
  },
  { entity: 'TH_TNIN', language: 'th', checksum: true, positive: g.thTnin },
];

const build = (spec: Spec, count: number, seed: number): EntityCorpus => {
  const rng = seededRng(seed);
  const cases: AccuracyCase[] = [];
  for (let i = 0; i < count; i++) {
    const value = spec.positive(rng);
    cases.push({ text: (TEMPLATES[i % TEMPLATES.length] as string).replace('{v}', value), expected: value });
  }
  for (let i = 0; i < count; i++) {
    const value = spec.negative ? spec.negative(rng) : corruptDigit(spec.positive(rng), rng);
    cases.push({ text: (TEMPLATES[i % TEMPLATES.length] as string).replace('{v}', value), expected: null });
  }
  return { entity: spec.entity, language: spec.language ?? 'en', checksum: spec.checksum ?? false, cases };
};

/** Default English set: 25 positives + 25 negatives each; every other type: 8 + 8. */
export const accuracyCorpus = (): EntityCorpus[] => [
  ...DEFAULT_EN.map((s, i) => build(s, 25, 1000 + i)),
  ...OTHERS.map((s, i) => build(s, 8, 2000 + i)),
];
