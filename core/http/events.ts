import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { Actor } from '../ops/define.ts';

/**
 * Server-sent events for the browser transport: the same progress events Electron sends over IPC, each only
 * to the actor that started the operation (admins see all). Callers correlate by the request id they sent.
 */
export const registerEventRoutes = (fastify: FastifyInstance, app: App, actorOf: (request: FastifyRequest) => Actor): void => {
  const config = { svc: { access: { tier: 'free' }, errors: { body: 'envelope' } } } as const;
  fastify.get('/api/events', { config }, async (request, reply) => {
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Content-Type-Options': 'nosniff',
    });
    raw.write(': connected\n\n');
    const actor = actorOf(request);
    const unsubscribe = app.events.on('progress', ({ actorId, ...event }) => {
      // Request ids and op names are the caller's business: others see them only as admins.
      if (actor.tier !== 'admin' && actorId !== actor.id) return;
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
