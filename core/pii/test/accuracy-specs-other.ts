/** Accuracy specs for the opt-in / non-English entity types (>= 5 cases each; see accuracy-corpus.ts). */
import type { Spec } from './accuracy-corpus.ts';
import * as g from './generators.ts';
import { corruptDigit, digits, int, pick, type Rng } from './generators.ts';
import * as m from './more-generators.ts';
import { L, p2 } from './more-generators.ts';

const TAG = 'ABCDEFGHJKLMNOPRSTUVWXY';
const TAG_RANDOM = 'ABCDEFGHJKLMNOPRSTUVWXYZ';
const YEAR = 'ABCDEFGHJKLMNPRSTVWXY';
const IT_CARD = 'BCDEFGHJKLMNPRSTUWXYZ0123456789';
const from = (r: Rng, alphabet: string, n: number): string => Array.from({ length: n }, () => pick(r, [...alphabet])).join('');

export const OTHER_SPECS: Spec[] = [
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
    // DVLA letter sets: memory tag without I, Q, Z; random letters without I, Q; prefix/suffix year letters.
    positive: (r) =>
      pick(r, [
        `${from(r, TAG, 2)}${pick(r, ['05', '19', '23', '51', '72'])} ${from(r, TAG_RANDOM, 3)}`,
        `${from(r, YEAR, 1)}${int(r, 1, 999)} ${from(r, TAG, 3)}`,
        `${from(r, TAG, 3)} ${int(r, 1, 999)}${from(r, YEAR, 1)}`,
      ]),
    negative: (r) =>
      pick(r, [
        `${from(r, TAG, 2)}${pick(r, ['00', '01', '30', '45', '88'])} ${from(r, TAG_RANDOM, 3)}`,
        `${pick(r, ['I', 'Q', 'Z'])}${from(r, TAG, 1)}${pick(r, ['05', '51'])} ${from(r, TAG_RANDOM, 3)}`,
        `${from(r, TAG, 2)}${pick(r, ['05', '51'])} ${from(r, TAG_RANDOM, 2)}${pick(r, ['I', 'Q'])}`,
        `${pick(r, ['I', 'O', 'Q', 'U', 'Z'])}${int(r, 1, 999)} ${from(r, TAG, 3)}`,
      ]),
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
    positive: (r) =>
      pick(r, [
        `${pick(r, ['MH', 'KA', 'DL', 'TN'])} ${p2(int(r, 1, 20))} ${L(r, 2)} ${int(r, 1000, 9999)}`,
        `${int(r, 21, 29)} BH ${int(r, 1000, 9999)} ${from(r, 'ABCDEFGHJKLMNPQRSTUVWXYZ', 2)}`,
        `${int(r, 10, 99)}${pick(r, ['A', 'B', 'C', 'D', 'E', 'F', 'H', 'K', 'P', 'R', 'X'])}${digits(r, 6)}${L(r, 1)}`,
      ]),
    negative: (r) => pick(r, ['the vehicle was red', `MH ${p2(int(r, 1, 20))} AB 0000`, `00B${digits(r, 6)}K`, `ABC0000`]),
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
    // Paper: 2 letters + 7 digits + letter; card: U1 + 7 from a set without A, I, O, Q, V + letter.
    positive: (r) => (r() < 0.5 ? `${L(r, 2)}${digits(r, 7)}${L(r, 1)}` : `U1${from(r, IT_CARD, 7)}${L(r, 1)}`),
    negative: (r) =>
      r() < 0.5
        ? `${L(r, 2)}${digits(r, 5)}${L(r, 1)}`
        : `U1${from(r, IT_CARD, 3)}${pick(r, ['A', 'I', 'O', 'Q', 'V'])}${from(r, IT_CARD, 3)}${L(r, 1)}`,
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
