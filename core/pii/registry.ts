/**
 * The built-in recognizer set. Enabled-by-default follows Presidio's default yaml for en/es/it/pl (plus
 * PIPL_NATIONAL_ID in en/zh); every other recognizer is loaded but opt-in: it runs when the request's
 * `entities` names one of its entity types. Language-agnostic recognizers run in every supported language.
 */
import { africaRecognizers } from './recognizers/other/africa.ts';
import { auRecognizers } from './recognizers/apac/au.ts';
import { inRecognizers } from './recognizers/apac/in.ts';
import { krRecognizers } from './recognizers/apac/kr.ts';
import { sgThPhRecognizers } from './recognizers/apac/sg-th-ph.ts';
import { caRecognizers } from './recognizers/other/ca.ts';
import { piplRecognizer } from './recognizers/other/cn.ts';
import { deIdRecognizers } from './recognizers/de/ids.ts';
import { deOtherRecognizers } from './recognizers/de/other.ts';
import { esRecognizers } from './recognizers/eu/es.ts';
import { itRecognizers } from './recognizers/eu/it.ts';
import { nordicRecognizers } from './recognizers/eu/nordic.ts';
import { plTrRecognizers } from './recognizers/eu/pl-tr.ts';
import { creditCardRecognizers } from './recognizers/generic/credit-card.ts';
import { cryptoRecognizer } from './recognizers/generic/crypto.ts';
import { dateRecognizer } from './recognizers/generic/date.ts';
import { dateWordsRecognizer } from './recognizers/generic/date-words.ts';
import { emailRecognizer } from './recognizers/generic/email.ts';
import { ibanRecognizer } from './recognizers/generic/iban.ts';
import { ipRecognizer } from './recognizers/generic/ip.ts';
import { macRecognizer } from './recognizers/generic/mac.ts';
import { medicalLicenseRecognizer } from './recognizers/generic/medical-license.ts';
import { phoneRecognizer } from './recognizers/generic/phone.ts';
import { countryPhoneRecognizers } from './recognizers/generic/phone-countries.ts';
import { urlRecognizer } from './recognizers/generic/url.ts';
import { ukRecognizers } from './recognizers/uk.ts';
import { usRecognizers } from './recognizers/us.ts';
import type { Recognizer } from './types.ts';

const BUILT_INS: readonly Recognizer[] = [
  ...creditCardRecognizers,
  cryptoRecognizer,
  dateRecognizer,
  dateWordsRecognizer,
  emailRecognizer,
  ibanRecognizer,
  ipRecognizer,
  macRecognizer,
  medicalLicenseRecognizer,
  phoneRecognizer,
  ...countryPhoneRecognizers,
  urlRecognizer,
  ...usRecognizers,
  ...ukRecognizers,
  ...esRecognizers,
  ...itRecognizers,
  ...plTrRecognizers,
  ...nordicRecognizers,
  ...deIdRecognizers,
  ...deOtherRecognizers,
  ...auRecognizers,
  ...inRecognizers,
  ...krRecognizers,
  ...sgThPhRecognizers,
  ...africaRecognizers,
  ...caRecognizers,
  piplRecognizer,
];

/** Every built-in pattern recognizer (stateless: safe to share between engines). */
export const builtInRecognizers = (): readonly Recognizer[] => BUILT_INS;

/** Presidio's default English entity set without NER (PERSON, LOCATION, NRP come from PII-SURFACE's NER). */
export const DEFAULT_EN_PATTERN_ENTITIES = [
  'CREDIT_CARD',
  'CRYPTO',
  'DATE_TIME',
  'EMAIL_ADDRESS',
  'IBAN_CODE',
  'IP_ADDRESS',
  'MAC_ADDRESS',
  'MEDICAL_LICENSE',
  'PHONE_NUMBER',
  'URL',
  'US_BANK_NUMBER',
  'US_DRIVER_LICENSE',
  'US_ITIN',
  'US_PASSPORT',
  'US_SSN',
  'UK_NHS',
  'PIPL_NATIONAL_ID',
] as const;

/** Every entity type a built-in recognizer can report. */
export const ALL_PATTERN_ENTITIES: readonly string[] = [...new Set(BUILT_INS.flatMap((r) => r.supportedEntities))].sort();
