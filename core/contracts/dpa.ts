import { z } from 'zod';
import { canonicalMechanisms, resolveTransferMechanism, type TransferMechanismId, transferMechanismIds } from './dpa-mechanisms.ts';

/**
 * The one validation of DPA input (snake_case, as on the wire), shared by the server (ops, HTTP, CLI) and the
 * renderer's DPA form, which shows these messages and limits before the server is asked. Text is NFC-normalised and trimmed; characters
 * that break XML or PDF (C0/C1 controls, lone surrogates, U+FFFE/U+FFFF) are refused with a clear message rather
 * than silently dropped, so what the parties sign is what they typed.
 */
export const dpaLimits = {
  name: 200,
  address: 1000,
  contact: 300,
  category: 200,
  categories: 50,
  law: 200,
  purpose: 2000,
  subProcessors: 50,
  retentionDaysMax: 36_500,
} as const;

// Tab is turned into a space before this check; newline is allowed only where `multiline` says so.
// \p{Cc} is C0 + DEL + C1; U+FFFE/U+FFFF are noncharacters XML refuses.
const controlChars = /(?!\n)[\p{Cc}\uFFFE\uFFFF]/u;
const controlCharsOrNewline = /[\p{Cc}\uFFFE\uFFFF]/u;
const loneSurrogate = /\p{Cs}/u;

const cleanText = (value: string): string => value.replace(/\r\n?/g, '\n').replace(/\t/g, ' ').normalize('NFC').trim();

const textChecks = <S extends z.ZodType<string, string>>(schema: S, max: number, multiline: boolean) =>
  schema
    .refine((v) => [...v].length <= max, `must be at most ${max} characters`)
    .refine((v) => !(multiline ? controlChars : controlCharsOrNewline).test(v), 'must not contain control characters')
    .refine((v) => !loneSurrogate.test(v), 'must be valid Unicode text');

/** A required text field. */
const text = (max: number, multiline = false) =>
  textChecks(
    z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .transform(cleanText)
      .refine((v) => v.length > 0, 'must not be empty'),
    max,
    multiline,
  );

/** An optional text field; an empty string (an untouched form field) counts as absent. */
const optionalText = (max: number, multiline = false) =>
  textChecks(z.string({ error: 'must be a string' }).transform(cleanText), max, multiline)
    .optional()
    .transform((v) => (v === undefined || v === '' ? undefined : v));

// Only the type failure gets our wording; other issues of the object (unknown keys) keep zod's own message.
const objectError = (issue: { code?: string; input: unknown }) =>
  issue.code !== 'invalid_type' ? undefined : issue.input === undefined ? 'is required' : 'must be an object';

export const partyDetailsSchema = z.strictObject(
  {
    name: text(dpaLimits.name),
    address: text(dpaLimits.address, true),
    contact: optionalText(dpaLimits.contact),
  },
  { error: objectError },
);
export type PartyDetailsInput = z.input<typeof partyDetailsSchema>;
export type PartyDetails = z.output<typeof partyDetailsSchema>;

const textList = (max: number, what: string) =>
  z
    .array(text(dpaLimits.category), { error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of strings') })
    .max(max, `at most ${max} entries`)
    .transform((values) => [...new Set(values)])
    .refine((values) => values.length > 0, `list at least one ${what}`);

const mechanismList = z
  .array(z.string({ error: 'must be a string' }), {
    error: (issue) => (issue.input === undefined ? 'is required' : 'must be a list of strings'),
  })
  .max(20, 'at most 20 entries')
  .transform((values, ctx): TransferMechanismId[] => {
    const ids: TransferMechanismId[] = [];
    for (const value of values) {
      const id = resolveTransferMechanism(value);
      if (id === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown transfer mechanism "${value.slice(0, 60)}"; use one of ${transferMechanismIds.join(', ')} or its display name`,
        });
      } else ids.push(id);
    }
    return canonicalMechanisms(ids);
  })
  .refine((ids) => ids.length > 0, 'name at least one transfer mechanism (none_eea_only when data stays in the EEA)')
  .refine((ids) => !(ids.includes('none_eea_only') && ids.length > 1), 'none_eea_only contradicts the other transfer mechanisms given');

export const subProcessorSchema = z.strictObject({
  name: text(dpaLimits.name),
  location: text(dpaLimits.name),
  activity: text(dpaLimits.contact),
});
export type SubProcessorInput = z.input<typeof subProcessorSchema>;
export type SubProcessor = z.output<typeof subProcessorSchema>;

export const dpaRequestSchema = z.strictObject({
  project_id: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(128, 'must be at most 128 characters')
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'may contain only letters, digits, ".", "_", ":" and "-"'),
  controller_details: partyDetailsSchema,
  processor_details: partyDetailsSchema,
  subject_categories: textList(dpaLimits.categories, 'category of data subjects'),
  transfer_mechanisms: mechanismList,
  retention_period_days: z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
    .int('must be a whole number of days')
    .positive('must be a positive number of days')
    .max(dpaLimits.retentionDaysMax, `must be at most ${dpaLimits.retentionDaysMax} days`),
  law_of_contract: text(dpaLimits.law),
  /** Beyond the spec: types of personal data; a generic description is used when absent. */
  data_categories: textList(dpaLimits.categories, 'type of personal data').optional(),
  /** Beyond the spec: purpose of the processing; a generic description is used when absent. */
  processing_purpose: optionalText(dpaLimits.purpose, true),
  /** Beyond the spec: sub-processors authorised at signature (Annex III). */
  sub_processors: z.array(subProcessorSchema).max(dpaLimits.subProcessors, `at most ${dpaLimits.subProcessors} entries`).optional(),
});
export type DpaRequestInput = z.input<typeof dpaRequestSchema>;
export type DpaRequest = z.output<typeof dpaRequestSchema>;
