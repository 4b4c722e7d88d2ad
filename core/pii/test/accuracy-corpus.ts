/**
 * Labelled accuracy corpus, generated (seeded) rather than copied: per entity type, positives embed a valid
 * value in a neutral sentence; negatives hold near-misses (broken checksum, impossible octet, wrong shape…).
 * `checksum` marks types whose detection is decided by a checksum/registry check (gated at 0.95).
 */
import { corruptDigit, digits, int, pick, type Rng, seededRng } from './generators.ts';
import * as g from './generators.ts';
import { OTHER_SPECS } from './accuracy-specs-other.ts';
import { PHONE_SPECS } from './phone-specs.ts';
import { L, p2 } from './more-generators.ts';

export type AccuracyCase = { readonly text: string; readonly expected: string | null };
export type EntityCorpus = {
  readonly entity: string;
  readonly language: string;
  readonly checksum: boolean;
  readonly cases: readonly AccuracyCase[];
};

export type Spec = {
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
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const ordinal = (d: number): string =>
  d % 10 === 1 && d !== 11 ? 'st' : d % 10 === 2 && d !== 12 ? 'nd' : d % 10 === 3 && d !== 13 ? 'rd' : 'th';
const hex = (rng: Rng) => int(rng, 0, 255).toString(16).padStart(2, '0');

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
  {
    entity: 'IBAN_CODE',
    checksum: true,
    positive: g.iban,
    // A broken check digit, or a valid IBAN whose country code is written in lower case (ISO 13616 capitals).
    negative: (r) => {
      const valid = g.iban(r);
      return r() < 0.5 ? corruptDigit(valid, r) : `${valid.slice(0, 2).toLowerCase()}${valid.slice(2)}`;
    },
  },
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
        `${d}${ordinal(d)} of ${MONTHS[mo - 1]} ${y}`,
        `${MONTHS[mo - 1]} ${d}, ${y}`,
        `${d} ${MONTHS[mo - 1]} ${y}`,
      ]);
    },
    negative: (r) =>
      pick(r, [
        `version ${int(r, 1, 9)}.${int(r, 10, 20)}`,
        `room ${int(r, 100, 999)}B`,
        `price ${int(r, 1, 99)}.99`,
        `${int(r, 40, 99)}/${int(r, 40, 99)}/2020`,
        `build v${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}`,
        `may I ask about item ${int(r, 1, 99)}`,
        `version ${int(r, 1990, 2030)} of the tool`,
        `March on, ${int(r, 2, 9)} teams`,
      ]),
  },
  {
    entity: 'IP_ADDRESS',
    positive: (r) => {
      const v4 = () => `${int(r, 1, 223)}.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)}`;
      return pick(r, [
        v4(),
        `${v4()}/${int(r, 8, 32)}`,
        `2001:db8:${hex(r)}${hex(r)}::${int(r, 1, 9)}`,
        `::ffff:${v4()}`,
        `64:ff9b::${v4()}`,
      ]);
    },
    negative: (r) =>
      pick(r, [
        `${int(r, 256, 999)}.1.2.3`,
        `${int(r, 1, 9)}.${int(r, 1, 9)}.${int(r, 1, 9)}`,
        `${p2(int(r, 0, 23))}:${p2(int(r, 10, 59))}:${p2(int(r, 10, 59))}`,
        `1.2.3.4.${int(r, 5, 9)}`,
        `v${int(r, 1, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)}.${int(r, 0, 9)}a`,
        `::ffff:${int(r, 256, 999)}.0.2.1`,
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
  ...OTHER_SPECS.map((s, i) => build(s, 8, 2000 + i)),
  ...PHONE_SPECS.map((s, i) => build(s, 8, 3000 + i)),
];
