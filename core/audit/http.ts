import { Readable } from 'node:stream';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { ProtocolRoutes } from '../http/protocol-routes.ts';
import { describeZodError } from '../ops/dispatch.ts';
import { operations } from '../ops/table.ts';
import { exportNdjson } from './export.ts';
import { importNdjson } from './import.ts';
import { projectIdSchema } from './input.ts';
import type { ImportResult } from './import.ts';
import { maxAppendBatch } from './ops.ts';
import { appendEvidence } from './store.ts';
import { dayBounds } from './evidence-rows.ts';
import { schemaKeys } from './types.ts';
import type { EvidenceInput, EvidenceRecord } from './types.ts';

/** Largest NDJSON request body; bigger loads go through `svc import` on the server's machine. */
export const maxNdjsonBytes = 512 * 1024 * 1024;
/** JSON array bodies are parsed whole, so they get a smaller cap than streams. */
export const maxJsonArrayBytes = 16 * 1024 * 1024;

async function* capped(source: AsyncIterable<Uint8Array>, limit: number): AsyncGenerator<Uint8Array> {
  let total = 0;
  for await (const chunk of source) {
    total += chunk.byteLength;
    if (total > limit) throw new AppError('PAYLOAD_TOO_LARGE', `NDJSON body larger than ${limit} bytes`);
    yield chunk;
  }
}

const spansOf = (records: readonly EvidenceRecord[]): ImportResult['projects'] => {
  const spans = new Map<string, ImportResult['projects'][number]>();
  for (const r of records) {
    const span = spans.get(r.project_id);
    if (span === undefined) spans.set(r.project_id, { project_id: r.project_id, first_seq: r.seq, last_seq: r.seq, head_hash: r.hash });
    else Object.assign(span, { last_seq: r.seq, head_hash: r.hash });
  }
  return [...spans.values()];
};

const exportQuery = z.strictObject({
  project_id: projectIdSchema,
  schema_key: z.enum(schemaKeys).optional(),
  from: z.string().optional(),
  to: z.string().optional(),
});

/** The ops' tiers, checked by the HTTP pipeline before the body is read; errors as `{error, errors?}`. */
const policyFor = (op: 'audit.append' | 'audit.query') => {
  const { tier } = operations[op];
  return { svc: { access: { tier }, errors: { body: 'error' } } } as const;
};

/**
 * `POST /v1/audit/records`: a JSON array of evidence inputs, or an NDJSON stream
 * (`Content-Type: application/x-ndjson`) read line by line. Either way all or nothing per request: 201 with
 * the chain span written per project, or an error listing the bad indexes / line numbers and nothing written.
 */
export const auditRoutes: ProtocolRoutes = async (fastify, { app }) => {
  // The raw request stream is the body: importNdjson reads it incrementally instead of buffering it.
  fastify.addContentTypeParser('application/x-ndjson', (_request, payload, done) => done(null, payload));

  fastify.post('/v1/audit/records', { bodyLimit: maxJsonArrayBytes, config: policyFor('audit.append') }, async (request, reply) => {
    const contentType = String(request.headers['content-type'] ?? '');
    if (contentType.startsWith('application/x-ndjson')) {
      const result = await importNdjson(app, capped(request.body as AsyncIterable<Uint8Array>, maxNdjsonBytes));
      return reply.code(201).send({ imported: result.imported, projects: result.projects });
    }
    if (!Array.isArray(request.body)) {
      throw new AppError('VALIDATION', 'Expected a JSON array of records or an application/x-ndjson body');
    }
    if (request.body.length === 0 || request.body.length > maxAppendBatch) {
      throw new AppError('VALIDATION', `A JSON array carries 1 to ${maxAppendBatch} records; use NDJSON for more`);
    }
    const records = await appendEvidence(app, request.body as EvidenceInput[]);
    return reply.code(201).send({ imported: records.length, projects: spansOf(records) });
  });

  /** The records of one project as an NDJSON download, streamed (`audit.query`'s filters, no paging). */
  fastify.get('/v1/audit/records.ndjson', { config: policyFor('audit.query') }, async (request, reply) => {
    const parsed = exportQuery.safeParse(request.query);
    if (!parsed.success) throw new AppError('VALIDATION', describeZodError(parsed.error));
    const q = parsed.data;
    dayBounds(q.from, q.to); // rejects bad dates before the 200 goes out
    const lines = exportNdjson(app, {
      projectId: q.project_id,
      ...(q.schema_key === undefined ? {} : { schemaKey: q.schema_key }),
      ...(q.from === undefined ? {} : { from: q.from }),
      ...(q.to === undefined ? {} : { to: q.to }),
    });
    return reply
      .header('Content-Type', 'application/x-ndjson; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="evidence_${q.project_id}.ndjson"`)
      .send(Readable.from(lines));
  });
};
