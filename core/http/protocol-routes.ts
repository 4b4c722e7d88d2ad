import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { Actor } from '../ops/define.ts';
import type { StartWebSession } from './web-login.ts';

/** What a protocol route plugin (SCIM, SAML, OIDC, uploads, downloads) gets from the server. */
export type RouteDeps = {
  readonly app: App;
  /** The caller's identity from the bearer token or session cookie; anonymous when none. Never throws. */
  readonly actorOf: (request: FastifyRequest) => Actor;
  /** The listener's own origin, e.g. `http://127.0.0.1:8765`, for building absolute URLs. */
  readonly origin: () => string;
  /** Sets the browser session cookie (HttpOnly, SameSite=Strict) after a successful SSO login. */
  readonly startWebSession: StartWebSession;
};

export type ProtocolRoutes = (fastify: FastifyInstance, deps: RouteDeps) => Promise<void>;
