import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import { authenticate } from './auth.ts';
import { sendError } from './error-reply.ts';
import { checkRoutePolicy, hasPendingBody } from './route-policy.ts';
import { applySecurityHeaders, checkRequestOrigin, type OriginPolicy } from './security.ts';

/** Time limits and the cap that keep slow or large bodies from holding memory or sockets. */
export type RequestLimits = {
  /** A request's whole body must arrive within this time after its headers, or the connection is closed. */
  readonly bodyTimeoutMs: number;
  /** A connection with no traffic either way for this long is closed. */
  readonly idleTimeoutMs: number;
  /** All headers must arrive within this time. */
  readonly headersTimeoutMs: number;
  /** Unauthenticated requests with a body (sign-in forms, SAML posts) in flight at once; more get 503. */
  readonly maxAnonymousBodies: number;
};

export const requestLimitsOf = (app: App): RequestLimits => {
  const settings = app.settings.get();
  return {
    bodyTimeoutMs: settings.httpBodyTimeoutSeconds * 1000,
    idleTimeoutMs: settings.httpIdleTimeoutSeconds * 1000,
    headersTimeoutMs: Math.min(15_000, settings.httpIdleTimeoutSeconds * 1000),
    maxAnonymousBodies: settings.httpMaxAnonymousBodies,
  };
};

declare module 'fastify' {
  interface FastifyRequest {
    svcActor?: import('../ops/define.ts').Actor;
  }
}

/** Closes the connection unless the whole body arrived in time (a trickling body must not hold the socket). */
const armBodyDeadline = (app: App, request: FastifyRequest, ms: number): void => {
  const timer = setTimeout(() => {
    if (request.raw.complete) return;
    app.log.warn({ requestId: request.id, path: request.url.split('?')[0] }, 'request body deadline passed; closing the connection');
    request.raw.socket.destroy();
  }, ms);
  timer.unref();
  const clear = (): void => clearTimeout(timer);
  request.raw.once('end', clear);
  request.raw.once('close', clear);
};

/**
 * The idle timeout is for silent clients, not for slow answers: once an accepted request's body is in, the
 * connection stays open however long the work takes (a bundle build, a large scan), and the timeout resumes
 * when the reply is sent. A client trickling its body is still cut off by the body deadline.
 */
const holdOpenWhileAnswering = (request: FastifyRequest, reply: FastifyReply, idleMs: number): void => {
  const socket = request.raw.socket;
  // fastify.inject()'s simulated socket (tests) has no timer to hold.
  if (typeof socket.setTimeout !== 'function') return;
  const hold = (): void => void socket.setTimeout(0);
  if (request.raw.complete) hold();
  else request.raw.once('end', hold);
  reply.raw.once('finish', () => {
    if (!socket.destroyed) socket.setTimeout(idleMs);
  });
};

/**
 * The one request pipeline: security headers, Host/Origin, authentication and the route's declared access are
 * all settled in `onRequest`, before any body is read; a refused request's body is never buffered and its
 * connection is closed. One error handler renders every error in the route's shape.
 */
export const registerPipeline = (fastify: FastifyInstance, app: App, origin: OriginPolicy, limits: RequestLimits): void => {
  fastify.server.headersTimeout = limits.headersTimeoutMs;
  let anonymousBodies = 0;

  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    applySecurityHeaders(reply);
    const pending = hasPendingBody(request);
    try {
      const verdict = checkRequestOrigin(request, origin);
      if (!verdict.ok) throw new AppError('FORBIDDEN', verdict.reason, { status: verdict.status });
      const { actor, failure } = await authenticate(app, request);
      request.svcActor = actor;
      checkRoutePolicy(request, actor, failure);
      // No route, nothing to read: a body sent to an unknown path is refused before it is buffered.
      if (pending && request.is404) throw new AppError('NOT_FOUND', 'Not found');
      if (pending && actor.kind === 'anonymous') {
        if (anonymousBodies >= limits.maxAnonymousBodies) {
          throw new AppError('UNAVAILABLE', 'Too many unauthenticated requests in flight; try again shortly');
        }
        anonymousBodies += 1;
        reply.raw.once('close', () => {
          anonymousBodies -= 1;
        });
      }
    } catch (error) {
      if (pending) reply.header('Connection', 'close');
      return sendError(app, request, reply, error);
    }
    if (pending) armBodyDeadline(app, request, limits.bodyTimeoutMs);
    holdOpenWhileAnswering(request, reply, limits.idleTimeoutMs);
    return undefined;
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/assets/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
  fastify.setErrorHandler((error, request, reply) => sendError(app, request, reply, error));
};
