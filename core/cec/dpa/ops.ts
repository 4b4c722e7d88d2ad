import { z } from 'zod';
import { defineOp } from '../../ops/define.ts';
import { exportDpa, exportFormats } from './export.ts';
import { buildDpaDocument, generateDpaFromRequest } from './generate.ts';
import { dpaLimits, dpaRequestSchema } from '../../contracts/dpa.ts';
import { transferMechanismIds, transferMechanisms } from '../../contracts/dpa-mechanisms.ts';
import { renderDpaHtml } from './render-html.ts';
import { deleteDpa, getDpa, listDpas } from './store.ts';
import { templateVersion } from './template-v1.ts';

const documentId = z.string().regex(/^dpa-[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a DPA document id (dpa-<ulid>)');

/** Relative to the server origin; served by core/cec/dpa/http.ts. */
export const exportLinks = (id: string) =>
  Object.fromEntries(exportFormats.map((format) => [format, `/v1/risk/dpa/${id}/export.${format}`])) as Record<
    (typeof exportFormats)[number],
    string
  >;

/** Operations of the DPA domain (GDPR Art. 28 agreements). */
export const dpaOps = {
  'dpa.options': defineOp({
    summary: 'Choices the DPA form offers: transfer mechanisms, limits, template version',
    input: z.object({}).optional(),
    access: 'read',
    tier: 'free',
    handler: async () => ({
      template_version: templateVersion,
      transfer_mechanisms: transferMechanismIds.map((id) => ({ id, display_name: transferMechanisms[id].displayName })),
      limits: dpaLimits,
    }),
  }),
  'dpa.preview': defineOp({
    summary: 'Renders a DPA from form input without storing it (live preview)',
    input: dpaRequestSchema,
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      const document = buildDpaDocument(ctx.app, input);
      return { content: document.content, html: renderDpaHtml(document.content), template_version: document.template_version };
    },
  }),
  'dpa.generate': defineOp({
    summary: 'Generates and stores a GDPR Article 28 DPA; returns the document and links to its exports',
    input: dpaRequestSchema,
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      const document = await generateDpaFromRequest(ctx.app, input);
      return { ...document, exports: exportLinks(document.document_id) };
    },
    http: { method: 'POST', path: '/v1/risk/dpa', status: 201, errorField: 'detail', validationStatus: 422 },
  }),
  'dpa.list': defineOp({
    summary: 'Stored DPAs, newest first (no content)',
    input: z
      .object({
        project_id: z.string().min(1).max(128).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .optional(),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => ({
      documents: await listDpas(ctx.app, {
        ...(input?.project_id === undefined ? {} : { projectId: input.project_id }),
        ...(input?.limit === undefined ? {} : { limit: input.limit }),
      }),
    }),
  }),
  'dpa.get': defineOp({
    summary: 'One stored DPA with its content',
    input: z.object({ id: documentId }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => ({ ...(await getDpa(ctx.app, input.id)), exports: exportLinks(input.id) }),
  }),
  'dpa.delete': defineOp({
    summary: 'Deletes a stored DPA',
    input: z.object({ id: documentId }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      await deleteDpa(ctx.app, input.id);
      return { deleted: true as const };
    },
  }),
  'dpa.export': defineOp({
    summary: 'Renders a stored DPA as Markdown, HTML, PDF or DOCX (base64)',
    input: z.object({ id: documentId, format: z.enum(exportFormats, { error: 'must be one of md, html, pdf, docx' }) }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      const file = await exportDpa(ctx.app, await getDpa(ctx.app, input.id), input.format);
      return { filename: file.filename, mime: file.mime, base64: file.data.toString('base64') };
    },
  }),
} as const;
