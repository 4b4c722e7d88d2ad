import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { jcs } from './chain.ts';
import { compileFastAll, compileFieldChecks, isPlain } from './fast-payload.ts';
import { maxJsonDepth, nestedDeeperThan } from './json-depth.ts';
import { pooledRandom } from './random-pool.ts';
import { payloadSchemas } from './schemas.ts';
import { schemaKeys } from './types.ts';
import type { SchemaKey } from './types.ts';

/** Ids are ASCII so they travel safely in file names, URLs and the JCS fast path. */
const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const projectIdSchema = z.string().regex(idPattern, 'expected 1-128 characters of A-Z a-z 0-9 . _ : - (no leading punctuation)');
/** projectIdSchema's verdict without a parse (it runs per record on the ingest path). */
export const isProjectId = (value: unknown): value is string => typeof value === 'string' && idPattern.test(value);

/** Record ids default to ULIDs; the monotonic factory is ~30x faster than `ulid()` (no per-call PRNG setup). */
const nextUlid = monotonicFactory(pooledRandom());
const utcMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Largest JCS(payload) accepted, in UTF-16 code units; evidence is metadata, not documents. */
export const maxPayloadChars = 64 * 1024;

/**
 * Event times are stored as UTC text and every date filter compares that text: an offset that carries a time past
 * 9999-12-31 or before 0000-01-01 in UTC would be stored with a six-digit year ('+010000-...') and sort wrongly.
 */
const firstStorableMs = Date.parse('0000-01-01T00:00:00.000Z');
const lastStorableMs = Date.parse('9999-12-31T23:59:59.999Z');
/**
 * UTC milliseconds (what toISOString writes, so most event times) whose every field is in range, days up to 28 so
 * the date exists in every month: a real instant in years 0000-9999 without parsing a Date (it ran per record).
 */
const plainUtcMillis = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
/** Exported for the test that holds it to the Date.parse reading on every shape, valid or not. */
export const storableInUtc = (timestamp: string): boolean => {
  if (plainUtcMillis.test(timestamp)) return true;
  const ms = Date.parse(timestamp);
  return ms >= firstStorableMs && ms <= lastStorableMs;
};

export const evidenceInputSchema = z.strictObject({
  project_id: projectIdSchema,
  schema_key: z.enum(schemaKeys),
  timestamp: z.iso
    .datetime({ offset: true })
    .refine(storableInUtc, 'must fall within the years 0000 to 9999 once converted to UTC')
    .optional(),
  record_id: z.string().regex(idPattern, 'expected 1-128 characters of A-Z a-z 0-9 . _ : -').optional(),
  // Checked for shape only: the key's own schema validates the content (no second copy of the object).
  payload: z
    .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value), 'expected an object')
    // Checked before any recursive step (schema, JCS) sees the payload: a deep document must not overflow the stack.
    .refine((value) => !nestedDeeperThan(value, maxJsonDepth), `nested deeper than ${maxJsonDepth} levels`),
});

/** A validated input with every default filled and its payload already canonical: ready to chain. */
export type PreparedInput = {
  readonly record_id: string;
  readonly project_id: string;
  readonly schema_key: SchemaKey;
  readonly timestamp: string;
  readonly payloadJcs: string;
  /** The validated payload object, when the caller still has it (not after staging). */
  readonly payload?: Record<string, unknown>;
};

export type InputIssue = { readonly path: string; readonly message: string };
export type PrepareResult = { ok: true; value: PreparedInput } | { ok: false; issues: InputIssue[] };

const toIssues = (error: z.ZodError, prefix: string): InputIssue[] =>
  error.issues.slice(0, 5).map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));

type Envelope = z.infer<typeof evidenceInputSchema>;

/** Fills the defaults of a validated input: timestamp to UTC milliseconds, record_id to a ULID when absent. */
const normalised = (input: Envelope, payloadJcs: string, payload: Record<string, unknown>, now: Date): PreparedInput => ({
  record_id: input.record_id ?? nextUlid(now.getTime()),
  project_id: input.project_id,
  schema_key: input.schema_key,
  timestamp:
    input.timestamp !== undefined && utcMillis.test(input.timestamp) ? input.timestamp : new Date(input.timestamp ?? now).toISOString(),
  payloadJcs,
  payload,
});

/** Fast paths compiled from the same zod schemas (core/audit/fast-payload.ts): they accept only what zod accepts. */
const fastPayloads = compileFastAll(payloadSchemas);
const { payload: _payloadIsCheckedByItsSchema, ...envelopeFields } = evidenceInputSchema.shape;
const envelopeValid = compileFieldChecks(envelopeFields);
const envelopeKeys = new Set(Object.keys(evidenceInputSchema.shape));

/** The prepared input when the fast path proves the raw input valid; undefined means "ask zod" (maybe invalid). */
const fastPrepare = (raw: unknown, now: Date): PreparedInput | undefined => {
  if (!isPlain(raw)) return undefined;
  for (const key in raw) if (!envelopeKeys.has(key)) return undefined;
  if (!envelopeValid(raw)) return undefined;
  const input = raw as Envelope;
  const payloadJcs = fastPayloads[input.schema_key](input.payload);
  if (payloadJcs === undefined || payloadJcs.length > maxPayloadChars) return undefined;
  // The caller's payload object: the fast path proved it equal to what zod would have returned.
  return normalised(input, payloadJcs, input.payload, now);
};

/**
 * Validates one raw input (envelope, then the payload against its schema key) and normalises it: timestamp
 * to UTC milliseconds, record_id to a ULID when absent, payload to JCS. Never throws for bad input. The fast
 * path answers for inputs it can prove valid; everything else (every invalid input) goes through zod.
 */
export const prepareInput = (raw: unknown, now: Date): PrepareResult => {
  const fast = fastPrepare(raw, now);
  return fast === undefined ? prepareWithZod(raw, now) : { ok: true, value: fast };
};

/**
 * prepareInput's prepared input, or undefined when the input is invalid (prepareInput then says why): the hot
 * path's form, without a result object per record.
 */
export const preparedOrUndefined = (raw: unknown, now: Date): PreparedInput | undefined => {
  const fast = fastPrepare(raw, now);
  if (fast !== undefined) return fast;
  const result = prepareWithZod(raw, now);
  return result.ok ? result.value : undefined;
};

/** The reference path: zod schemas, then jcs. Exported for the differential test against the fast path. */
export const prepareWithZod = (raw: unknown, now: Date): PrepareResult => {
  const envelope = evidenceInputSchema.safeParse(raw);
  if (!envelope.success) return { ok: false, issues: toIssues(envelope.error, '') };
  const input = envelope.data;
  const payload = payloadSchemas[input.schema_key].safeParse(input.payload);
  if (!payload.success) return { ok: false, issues: toIssues(payload.error, 'payload') };
  let payloadJcs: string;
  try {
    payloadJcs = jcs(payload.data);
  } catch (error) {
    return { ok: false, issues: [{ path: 'payload', message: (error as Error).message }] };
  }
  if (payloadJcs.length > maxPayloadChars) {
    return { ok: false, issues: [{ path: 'payload', message: `larger than ${maxPayloadChars} characters` }] };
  }
  return { ok: true, value: normalised(input, payloadJcs, payload.data, now) };
};

/** One line of a human-readable error list: `payload.value: Invalid input`. */
export const formatIssues = (issues: readonly InputIssue[]): string =>
  issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
