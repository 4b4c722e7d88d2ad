import { z } from 'zod';
import { defineOp } from '../ops/define.ts';
import { anchorHead, listAnchors } from './anchors/store.ts';
import { importNdjson } from './import.ts';
import { projectIdSchema } from './input.ts';
import { textChunks } from './ndjson.ts';
import { listProjects, queryEvidence } from './query.ts';
import { appendEvidence } from './store.ts';
import { schemaKeys } from './types.ts';
import { verifyChain } from './verify.ts';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** Query strings arrive as text; numbers are coerced. */
const positiveInt = z.coerce.number().int().min(1);

/** Largest batch one `audit.append` call takes; bigger loads go through NDJSON import. */
export const maxAppendBatch = 10_000;

/** Operations of the evidence store (contract A's surface for the UI, REST and other tools). */
export const auditOps = {
  'audit.append': defineOp({
    summary: "Append evidence records to their projects' hash chains, all or nothing",
    // Each element is validated in full (envelope + payload schema) by the store, which reports the index.
    input: z.object({ records: z.array(z.record(z.string(), z.unknown())).min(1).max(maxAppendBatch) }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      const records = await appendEvidence(ctx.app, input.records);
      return {
        imported: records.length,
        records: records.map(({ seq, record_id, project_id, hash }) => ({ seq, record_id, project_id, hash })),
      };
    },
  }),
  'audit.query': defineOp({
    summary: "A page of a project's evidence records in chain order, filtered by schema key and UTC date range",
    input: z.strictObject({
      project_id: projectIdSchema,
      schema_key: z.enum(schemaKeys).optional(),
      from: day.optional(),
      to: day.optional(),
      cursor: z.coerce.number().int().min(0).optional(),
      page: positiveInt.optional(),
      limit: positiveInt.max(500).default(50),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) =>
      queryEvidence(ctx.app, {
        projectId: input.project_id,
        limit: input.limit,
        ...(input.schema_key === undefined ? {} : { schemaKey: input.schema_key }),
        ...(input.from === undefined ? {} : { from: input.from }),
        ...(input.to === undefined ? {} : { to: input.to }),
        ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
        ...(input.page === undefined ? {} : { page: input.page }),
      }),
    http: { method: 'GET', path: '/v1/audit/records', errorField: 'error' },
  }),
  'audit.verifyChain': defineOp({
    summary: "Re-hash every record of a project's chain and check its links; reports the first broken seq",
    input: z.object({ project_id: projectIdSchema }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) =>
      verifyChain(ctx.app, input.project_id, (done, total) => ctx.progress(done, total, `verified ${done} records`)),
    http: { method: 'GET', path: '/v1/audit/chain/:project_id/verify', errorField: 'error' },
  }),
  'audit.projects': defineOp({
    summary: 'Projects with evidence: counts per schema key and chain heads',
    input: z.object({}),
    access: 'read',
    tier: 'api',
    handler: async (_input, ctx) => ({ projects: await listProjects(ctx.app) }),
  }),
  'audit.importNdjson': defineOp({
    summary: 'Import NDJSON evidence text (one record per line), all or nothing, with progress',
    input: z.object({
      text: z.string().max(256 * 1024 * 1024),
      project_id: projectIdSchema.optional(),
    }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) =>
      importNdjson(ctx.app, textChunks(input.text), {
        totalBytes: Buffer.byteLength(input.text),
        onProgress: ctx.progress,
        signal: ctx.signal,
        ...(input.project_id === undefined ? {} : { defaultProjectId: input.project_id }),
      }),
  }),
  'audit.anchor': defineOp({
    summary: "Anchor a project's chain head now (RFC 3161 token, or an Ed25519 checkpoint without a TSA)",
    input: z.strictObject({ project_id: projectIdSchema }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => anchorHead(ctx.app, input.project_id),
    http: { method: 'POST', path: '/v1/audit/anchors/:project_id', errorField: 'error' },
  }),
  'audit.anchors': defineOp({
    summary: "A project's chain anchors in seq order (seq, head hash, kind, token, created_at)",
    input: z.strictObject({
      project_id: projectIdSchema,
      from_seq: positiveInt.optional(),
      limit: positiveInt.max(10_000).default(1_000),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => ({
      anchors: await listAnchors(ctx.app, input.project_id, input.from_seq ?? 1, Number.MAX_SAFE_INTEGER, input.limit),
    }),
    http: { method: 'GET', path: '/v1/audit/anchors/:project_id', errorField: 'error' },
  }),
} as const;
