import { monotonicFactory } from 'ulid';
import { z } from 'zod';
import { jcs } from './chain.ts';
import { maxJsonDepth, nestedDeeperThan } from './json-depth.ts';
import { payloadSchemas } from './schemas.ts';
import { schemaKeys } from './types.ts';
import type { SchemaKey } from './types.ts';

/** Ids are ASCII so they travel safely in file names, URLs and the JCS fast path. */
const idPattern = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const projectIdSchema = z.string().regex(idPattern, 'expected 1-128 characters of A-Z a-z 0-9 . _ : - (no leading punctuation)');

/** Record ids default to ULIDs; the monotonic factory is ~30x faster than `ulid()` (no per-call PRNG setup). */
const nextUlid = monotonicFactory();
const utcMillis = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Largest JCS(payload) accepted, in UTF-16 code units; evidence is metadata, not documents. */
export const maxPayloadChars = 64 * 1024;

export const evidenceInputSchema = z.strictObject({
  project_id: projectIdSchema,
  schema_key: z.enum(schemaKeys),
  timestamp: z.iso.datetime({ offset: true }).optional(),
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

/**
 * Validates one raw input (envelope, then the payload against its schema key) and normalises it: timestamp
 * to UTC milliseconds, record_id to a ULID when absent, payload to JCS. Never throws for bad input.
 */
export const prepareInput = (raw: unknown, now: Date): PrepareResult => {
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
  return {
    ok: true,
    value: {
      record_id: input.record_id ?? nextUlid(now.getTime()),
      project_id: input.project_id,
      schema_key: input.schema_key,
      timestamp:
        input.timestamp !== undefined && utcMillis.test(input.timestamp) ? input.timestamp : new Date(input.timestamp ?? now).toISOString(),
      payloadJcs,
      payload: payload.data,
    },
  };
};

/** One line of a human-readable error list: `payload.value: Invalid input`. */
export const formatIssues = (issues: readonly InputIssue[]): string =>
  issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ');
