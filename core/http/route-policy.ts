import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';
import { type Access, authorizeActor } from '../ops/authorize.ts';
import type { Actor } from '../ops/define.ts';

/**
 * How a route renders its errors: the spec fixes a different body per family of routes.
 * - `error` / `detail`: `{"error": "..."}` (PII, keys, audit) or `{"detail": "..."}` (CEC, DPA);
 * - `envelope`: the ops envelope `{"ok": false, "error": {code, message}}` (`/api/*`, `/auth/*`);
 * - `scim`: an RFC 7644 error body with `scimType`;
 * - `html`: a page for a browser (login links, SSO callbacks), JSON when the caller asks for it.
 */
export type ErrorShape = {
  readonly body: 'error' | 'detail' | 'envelope' | 'scim' | 'html';
  /** Status for VALIDATION errors without their own status (default 400; the CEC REST routes want 422). */
  readonly validationStatus?: number;
  /** The realm of the `WWW-Authenticate: Bearer` challenge on 401 (default `svc`). */
  readonly realm?: string;
};

export type RouteAccess = Access;

/**
 * What every route declares in its `config.svc`. The pipeline checks access in `onRequest`, before a single
 * byte of the body is read, and renders every error of the route in its shape.
 */
export type RoutePolicy = {
  /** A function when the tier depends on the path (`/api/ops/:name`: the op's tier). */
  readonly access: RouteAccess | ((request: FastifyRequest) => RouteAccess);
  readonly errors: ErrorShape;
  /** Methods the path supports when it is registered for more (SCIM): others get 405 with `Allow`; undefined = any. */
  readonly allow?: (request: FastifyRequest) => readonly string[] | undefined;
  /** Routes that legitimately receive cross-site POSTs (the SAML ACS); they authenticate by signature. */
  readonly allowCrossOrigin?: boolean;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    svc?: RoutePolicy;
  }
}

/** Public routes by error shape: browser pages, the ops envelope (`/auth/*`), plain `{error}`. */
export const publicRoute = (body: ErrorShape['body']): { svc: RoutePolicy } => ({ svc: { access: { tier: 'public' }, errors: { body } } });

/** Routes without a declared policy (404s, static files) are public and answer `{error}`. */
const fallbackPolicy: RoutePolicy = { access: { tier: 'public' }, errors: { body: 'error' } };
const apiFallback: RoutePolicy = { access: { tier: 'public' }, errors: { body: 'envelope' } };

export const policyOf = (request: FastifyRequest): RoutePolicy =>
  request.routeOptions.config?.svc ?? (request.url.startsWith('/api/') ? apiFallback : fallbackPolicy);

/** Checks a request against its route's policy; throws the AppError the error handler renders. */
export const checkRoutePolicy = (request: FastifyRequest, actor: Actor, failure: string | undefined): void => {
  const policy = policyOf(request);
  const access = typeof policy.access === 'function' ? policy.access(request) : policy.access;
  authorizeActor(access, actor, failure);
  const allowed = policy.allow?.(request);
  // HEAD is GET without a body (Fastify answers it from the GET route).
  if (allowed !== undefined && !allowed.includes(request.method === 'HEAD' ? 'GET' : request.method)) {
    throw new AppError('VALIDATION', `Method ${request.method} is not supported on this path`, {
      status: 405,
      detail: { allow: allowed.join(', ') },
    });
  }
};

/** True when the request carries a body that nobody has read yet. */
export const hasPendingBody = (request: FastifyRequest): boolean => {
  const length = request.headers['content-length'];
  return (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
};
