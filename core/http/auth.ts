import type { FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { AppError } from '../errors.ts';
import { verifySessionJwt } from '../identity/api-keys/jwt.ts';
import { validateApiKey } from '../identity/api-keys/service.ts';
import { apiKeyPrefix } from '../identity/api-keys/format.ts';
import type { Actor } from '../ops/define.ts';
import { parseCookies, sessionCookieName } from './cookies.ts';

export const anonymous: Actor = { kind: 'anonymous', id: 'anonymous', tier: 'public', scopes: [] };

const bearerOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
};

/**
 * Who sent the request: an API key or session JWT as a bearer token, else the browser session cookie.
 * A credential that fails is treated as none (the route then answers 401); `failure` says why, for the 401 text.
 */
export const authenticate = async (app: App, request: FastifyRequest): Promise<{ actor: Actor; failure?: string }> => {
  const bearer = bearerOf(request);
  const token = bearer ?? parseCookies(request.headers.cookie).get(sessionCookieName);
  if (token === undefined || token === '') return { actor: anonymous };
  if (bearer?.startsWith(apiKeyPrefix)) {
    const key = await validateApiKey(app, bearer);
    if (key === null) return { actor: anonymous, failure: 'Invalid, revoked or expired API key' };
    return {
      actor: {
        kind: 'apiKey',
        id: key.id,
        tier: key.tier,
        scopes: key.scopes,
        ...(key.owner_user_id ? { subject: key.owner_user_id } : {}),
      },
    };
  }
  try {
    return { actor: await verifySessionJwt(app, token) };
  } catch (error) {
    return { actor: anonymous, failure: (error as AppError).message };
  }
};
