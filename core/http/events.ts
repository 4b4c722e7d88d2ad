import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { Actor } from '../ops/define.ts';

/**
 * Server-sent events for the browser transport: the same progress events Electron sends over IPC. Callers
 * correlate by the request id they sent with the op call.
 */
export const registerEventRoutes = (fastify: FastifyInstance, app: App, actorOf: (request: FastifyRequest) => Actor): void => {
  fastify.get('/api/events', async (request, reply) => {
    if (actorOf(request).kind === 'anonymous') {
      return reply.code(401).send({ ok: false, error: { code: 'UNAUTHENTICATED', message: 'Authentication required' } });
    }
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    });
    raw.write(': connected\n\n');
    const unsubscribe = app.events.on('progress', (event) => {
      raw.write(`event: progress\ndata: ${JSON.stringify(event)}\n\n`);
    });
    // A comment line every 15 s keeps proxies from closing an idle stream.
    const keepAlive = setInterval(() => raw.write(': ping\n\n'), 15_000);
    keepAlive.unref();
    request.raw.on('close', () => {
      clearInterval(keepAlive);
      unsubscribe();
    });
  });
};
