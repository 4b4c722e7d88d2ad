import { z } from 'zod';
import { AppError } from '../../errors.ts';
import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { exportDpa, exportFormats } from './export.ts';
import { getDpa } from './store.ts';

const params = z.object({
  id: z.string().regex(/^dpa-[0-9A-HJKMNP-TV-Z]{26}$/),
  format: z.enum(exportFormats),
});

const config = { svc: { access: { tier: 'api' }, errors: { body: 'detail' } } } as const;

/**
 * File downloads of stored DPAs: `GET /v1/risk/dpa/:id/export.:format` (md, html, pdf, docx), tier `api`.
 * A download, not an op, because the body is the file itself with its own type and name.
 */
export const dpaRoutes: ProtocolRoutes = async (fastify, { app }) => {
  fastify.get('/v1/risk/dpa/:id/export.:format', { config }, async (request, reply) => {
    const parsed = params.safeParse(request.params);
    if (!parsed.success) throw new AppError('NOT_FOUND', 'DPA export not found');
    const file = await exportDpa(app, await getDpa(app, parsed.data.id), parsed.data.format);
    return reply
      .code(200)
      .header('content-type', file.mime)
      .header('content-disposition', `attachment; filename="${file.filename}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(file.data);
  });
};
