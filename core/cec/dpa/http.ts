import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { AppError, httpStatusFor } from '../../errors.ts';
import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { tierAtLeast } from '../../ops/define.ts';
import { exportDpa, exportFormats } from './export.ts';
import { getDpa } from './store.ts';

const params = z.object({
  id: z.string().regex(/^dpa-[0-9A-HJKMNP-TV-Z]{26}$/),
  format: z.enum(exportFormats),
});

const fail = (reply: FastifyReply, status: number, detail: string) => reply.code(status).send({ detail });

/**
 * File downloads of stored DPAs: `GET /v1/risk/dpa/:id/export.:format` (md, html, pdf, docx), tier `api`.
 * A download, not an op, because the body is the file itself with its own type and name.
 */
export const dpaRoutes: ProtocolRoutes = async (fastify, { app, actorOf }) => {
  fastify.get('/v1/risk/dpa/:id/export.:format', async (request, reply) => {
    const actor = actorOf(request);
    if (actor.kind === 'anonymous') return fail(reply, 401, 'Authentication required');
    if (!tierAtLeast(actor.tier, 'api')) return fail(reply, 403, 'This download needs the api tier');
    const parsed = params.safeParse(request.params);
    if (!parsed.success) return fail(reply, 404, 'DPA export not found');
    try {
      const file = await exportDpa(app, getDpa(app, parsed.data.id), parsed.data.format);
      return reply
        .code(200)
        .header('content-type', file.mime)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(file.data);
    } catch (error) {
      if (error instanceof AppError) return fail(reply, error.status ?? httpStatusFor(error.code), error.message);
      throw error;
    }
  });
};
