/**
 * Benchmark corpus generator: English prose with PII planted at known positions (code-point offsets, which
 * equal UTF-16 offsets here: the corpus is ASCII). Shared by the PII benchmarks.
 * Size: `generateCorpus(bytes, seed)`; the benches read PII_CORPUS_BYTES (default 10 MB).
 */
import * as g from '../core/pii/test/generators.ts';

export type PlantedEntity = { readonly type: string; readonly start: number; readonly end: number; readonly value: string };
export type Corpus = { readonly text: string; readonly entities: readonly PlantedEntity[] };

export const DEFAULT_CORPUS_BYTES = 10 * 1024 * 1024;
export const corpusBytesFromEnv = (): number => Number(process.env.PII_CORPUS_BYTES ?? DEFAULT_CORPUS_BYTES);

const FILLER = [
  'The quarterly report was reviewed by the committee and approved without changes.',
  'Please make sure the backup job finished before the maintenance window starts.',
  'Our support team answers tickets within one business day, including weekends.',
  'The invoice total includes shipping and handling as agreed in the contract.',
  'Several customers asked about the new pricing, so we updated the FAQ page.',
  'The migration to the new storage cluster is planned for the second quarter.',
  'Remember to rotate the credentials after the audit has been completed.',
  'The training session covers data minimisation and retention schedules.',
];
const PEOPLE = ['Maria Gonzalez', 'John Smith', 'Priya Raman', 'Wei Zhang', 'Olusegun Adeyemi', 'Emily Watson'];
const PLACES = ['Madrid', 'Boston', 'Lagos', 'Berlin', 'Toronto', 'Sydney'];

type Planter = { type: string; lead: string; value: (rng: g.Rng) => string };
const PLANTERS: Planter[] = [
  { type: 'EMAIL_ADDRESS', lead: 'Reply to', value: (r) => `${g.pick(r, ['anna', 'li.wei', 'j_doe'])}${g.int(r, 1, 999)}@example.com` },
  {
    type: 'PHONE_NUMBER',
    lead: 'Call us on',
    value: (r) => `(${g.pick(r, ['212', '415', '617'])}) ${g.int(r, 234, 899)}-${g.digits(r, 4)}`,
  },
  { type: 'CREDIT_CARD', lead: 'The card on file is', value: g.creditCard },
  { type: 'US_SSN', lead: 'Her social security number is', value: g.ssn },
  { type: 'IBAN_CODE', lead: 'Transfer to IBAN', value: g.iban },
  {
    type: 'IP_ADDRESS',
    lead: 'The request came from',
    value: (r) => `${g.int(r, 11, 223)}.${g.int(r, 0, 255)}.${g.int(r, 0, 255)}.${g.int(r, 1, 254)}`,
  },
  { type: 'URL', lead: 'Details are at', value: (r) => `https://www.example.com/docs/${g.int(r, 1, 9999)}` },
  {
    type: 'DATE_TIME',
    lead: 'The meeting is on',
    value: (r) => `${g.int(r, 2000, 2030)}-${String(g.int(r, 1, 12)).padStart(2, '0')}-${String(g.int(r, 1, 28)).padStart(2, '0')}`,
  },
  { type: 'UK_NHS', lead: 'NHS number', value: g.nhs },
  { type: 'PIPL_NATIONAL_ID', lead: 'Resident id card', value: g.piplId },
  { type: 'PERSON', lead: 'Signed by', value: (r) => g.pick(r, PEOPLE) },
  { type: 'LOCATION', lead: 'Our office in', value: (r) => g.pick(r, PLACES) },
];

/** Prose of about `bytes` characters with one planted entity per ~2–3 sentences. */
export const generateCorpus = (bytes: number, seed = 1): Corpus => {
  const rng = g.seededRng(seed);
  const parts: string[] = [];
  const entities: PlantedEntity[] = [];
  let length = 0;
  const push = (s: string) => {
    parts.push(s);
    length += s.length;
  };
  while (length < bytes) {
    push(`${g.pick(rng, FILLER)} `);
    if (rng() < 0.45) {
      const planter = g.pick(rng, PLANTERS);
      const value = planter.value(rng);
      push(`${planter.lead} `);
      entities.push({ type: planter.type, start: length, end: length + value.length, value });
      push(`${value}. `);
    }
    if (rng() < 0.2) push('\n');
  }
  return { text: parts.join(''), entities };
};
