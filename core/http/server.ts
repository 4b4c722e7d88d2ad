import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { Actor } from '../ops/define.ts';
import { auditRoutes } from '../audit/http.ts';
import { cecRoutes } from '../cec/http.ts';
import { dpaRoutes } from '../cec/dpa/http.ts';
import { oidcRoutes } from '../identity/oidc/http.ts';
import { samlRoutes } from '../identity/saml/http.ts';
import { scimRoutes } from '../identity/scim/http.ts';
import { anonymous } from './auth.ts';
import { registerEventRoutes } from './events.ts';
import { registerJsonParser } from './json-body.ts';
import { openApiDocument } from './openapi.ts';
import { registerOpRoutes } from './ops-routes.ts';
import { registerPipeline, requestLimitsOf } from './pipeline.ts';
import type { ProtocolRoutes, RouteDeps } from './protocol-routes.ts';
import { publicRoute } from './route-policy.ts';
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

const actorOf = (request: FastifyRequest): Actor => request.svcActor ?? anonymous;

/**
 * No route declares a Fastify (JSON Schema) schema: inputs are validated with zod (core/ops). Fastify's default
 * compilers would load ajv and fast-json-stringify at start-up for nothing; a route given a schema fails to
 * register with this message instead.
 */
const noSchemaCompilers = () => {
  throw new Error('Fastify route schemas are not used: validate the input with zod');
};

/**
 * The local HTTP API: security checks, authentication, the op routes, protocol routes, server-sent events, the
 * web login and the renderer's static files. Listening is the caller's job (`listen.ts`), so tests use inject().
 */
export const buildServer = async (options: ServerOptions): Promise<FastifyInstance> => {
  const { app } = options;
  const secure = options.origin().startsWith('https:');
  const limits = requestLimitsOf(app);
  const fastify = Fastify({
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.bodyTimeoutMs + limits.headersTimeoutMs,
    bodyLimit: bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildValidator: noSchemaCompilers, buildSerializer: noSchemaCompilers } },
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
  registerPipeline(fastify, app, { origin: options.origin, extraHosts: options.extraHosts ?? [] }, limits);

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
  fastify.get('/openapi.json', { config: publicRoute('error') }, async () => openApiDocument());
  for (const routes of protocolRoutes) await fastify.register(async (scope) => routes(scope, deps));
  await registerStaticFiles(fastify, options.rendererDir ?? defaultRendererDir);
  return fastify;
};
