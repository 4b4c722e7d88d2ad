import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../ops/define.ts';
import { auditRoutes } from '../audit/http.ts';
import { cecRoutes } from '../cec/http.ts';
import { dpaRoutes } from '../cec/dpa/http.ts';
import { oidcRoutes } from '../identity/oidc/http.ts';
import { samlRoutes } from '../identity/saml/http.ts';
import { scimRoutes } from '../identity/scim/http.ts';
import { anonymous, authenticate } from './auth.ts';
import { registerEventRoutes } from './events.ts';
import { registerJsonParser } from './json-body.ts';
import { openApiDocument } from './openapi.ts';
import { registerOpRoutes, sendFrameworkError } from './ops-routes.ts';
import type { ProtocolRoutes, RouteDeps } from './protocol-routes.ts';
import { applySecurityHeaders, checkRequestOrigin } from './security.ts';
import { defaultRendererDir, registerStaticFiles } from './static-files.ts';
import { registerWebLogin, webSessionStarter } from './web-login.ts';

/** Spec limit for request bodies (PII text); upload routes raise it for themselves. */
export const bodyLimitBytes = 1024 * 1024;

/** Every protocol plugin, in registration order. */
const protocolRoutes: readonly ProtocolRoutes[] = [auditRoutes, cecRoutes, dpaRoutes, scimRoutes, samlRoutes, oidcRoutes];

export type ServerOptions = {
  readonly app: App;
  /** The origin clients use, e.g. `http://127.0.0.1:8765`; a function because port 0 is known only after listen. */
  readonly origin: () => string;
  /** Extra Host names accepted (SVC_ALLOWED_HOSTS), for a team server behind a proxy. */
  readonly extraHosts?: readonly string[];
  readonly rendererDir?: string;
  /** Log requests through the app's logger (off in tests). */
  readonly logRequests?: boolean;
};

declare module 'fastify' {
  interface FastifyRequest {
    svcActor?: Actor;
    svcAuthFailure?: string;
  }
}

const actorOf = (request: FastifyRequest): Actor => request.svcActor ?? anonymous;

const frameworkError = (error: { code?: string; statusCode?: number; message: string }): AppError => {
  if (error instanceof AppError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'request_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION', 'Unsupported Content-Type', { status: 415 });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION', 'Content-Length does not match the body');
    default:
      if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
        return new AppError('VALIDATION', error.message, { status: error.statusCode });
      }
      return new AppError('INTERNAL', 'Internal error', { cause: error });
  }
};

/**
 * The local HTTP API: security checks, authentication, the op routes, protocol routes, server-sent events, the
 * web login and the renderer's static files. Listening is the caller's job (`listen.ts`), so tests use inject().
 */
export const buildServer = async (options: ServerOptions): Promise<FastifyInstance> => {
  const { app } = options;
  const secure = options.origin().startsWith('https:');
  const fastify = Fastify({
    bodyLimit: bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    return503OnClosing: true,
    logger: options.logRequests
      ? {
          level: app.log.level,
          serializers: {
            // Paths only: query strings can carry login tokens and OIDC codes.
            req: (request: { method: string; url: string; id: string }) => ({
              id: request.id,
              method: request.method,
              path: request.url.split('?')[0],
            }),
            res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
          },
        }
      : false,
  });
  registerJsonParser(fastify);

  const policy = { origin: options.origin, extraHosts: options.extraHosts ?? [] };
  fastify.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    applySecurityHeaders(reply);
    const verdict = checkRequestOrigin(request, policy);
    if (!verdict.ok) return reply.code(verdict.status).send({ error: verdict.reason });
    const { actor, failure } = await authenticate(app, request);
    request.svcActor = actor;
    if (failure !== undefined) request.svcAuthFailure = failure;
    return undefined;
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.url.startsWith('/assets/')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
  fastify.setErrorHandler((error, request, reply) =>
    sendFrameworkError(request, reply, frameworkError(error as { code?: string; statusCode?: number; message: string })),
  );

  const startWebSession = webSessionStarter(app, secure);
  const deps: RouteDeps = {
    app,
    actorOf,
    origin: options.origin,
    startWebSession,
  };
  registerOpRoutes(fastify, app, actorOf);
  registerEventRoutes(fastify, app, actorOf);
  registerWebLogin(fastify, app, actorOf, startWebSession, secure);
  fastify.get('/openapi.json', async () => openApiDocument());
  for (const routes of protocolRoutes) await fastify.register(async (scope) => routes(scope, deps));
  await registerStaticFiles(fastify, options.rendererDir ?? defaultRendererDir);
  return fastify;
};
