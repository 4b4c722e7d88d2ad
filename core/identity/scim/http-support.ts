import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, httpStatusFor } from '../../errors.ts';
import { jsonDepthWithin, maxJsonDepth } from '../../http/json-body.ts';
import type { Actor } from '../../ops/define.ts';
import { scimError, scimTypeOf } from './errors.ts';
import { assertAttributeNotation } from './projection.ts';
import { errorUrn } from './schema.ts';
import type { ListQuery } from './types.ts';

export const scimContentType = 'application/scim+json; charset=utf-8';

/** Sends a resource or message as application/scim+json. */
export const sendScim = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', scimContentType).send(JSON.stringify(body));

/** RFC 7644 3.12 error body; status as a string, scimType when the error has one. Internal details never leak. */
export const sendScimError = (reply: FastifyReply, error: unknown, log: { error: (obj: object, msg: string) => void }): FastifyReply => {
  const appError = error instanceof AppError ? error : new AppError('INTERNAL', 'Internal error', { cause: error });
  if (appError.code === 'INTERNAL') log.error({ err: error }, 'scim request failed unexpectedly');
  const status = appError.status ?? httpStatusFor(appError.code);
  const scimType = scimTypeOf(appError);
  const detail = appError.code === 'INTERNAL' ? 'Internal error' : appError.message;
  return sendScim(reply, status, { schemas: [errorUrn], status: String(status), ...(scimType === undefined ? {} : { scimType }), detail });
};

/**
 * SCIM callers are IdP provisioning clients: a key or token with the `scim` scope, or an admin. No credential
 * (or a bad one) is 401 with a Bearer challenge; an authenticated caller without the grant is 403.
 */
export const requireScimActor = (actor: Actor, failure: string | undefined): void => {
  if (actor.kind === 'anonymous') {
    throw new AppError('UNAUTHENTICATED', failure ?? 'A bearer token with the scim scope is required', {
      detail: { failure: failure !== undefined },
    });
  }
  if (!actor.scopes.includes('scim') && actor.tier !== 'admin') {
    throw new AppError('FORBIDDEN', 'This credential lacks the scim scope');
  }
};

export const challengeHeader = (invalidToken: boolean): string =>
  invalidToken ? 'Bearer realm="SCIM", error="invalid_token"' : 'Bearer realm="SCIM"';

/** Registers application/scim+json (same rules as the server's JSON parser) for the SCIM scope only. */
export const registerScimJsonParser = (fastify: FastifyInstance): void => {
  fastify.addContentTypeParser(['application/scim+json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (!jsonDepthWithin(text, maxJsonDepth))
      return done(scimError('invalidSyntax', `JSON nested deeper than ${maxJsonDepth} levels`), undefined);
    try {
      done(
        null,
        JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value)),
      );
    } catch (error) {
      done(scimError('invalidSyntax', 'Malformed JSON body', error), undefined);
    }
  });
};

/** Parser and framework errors inside the SCIM scope, as SCIM error bodies. */
export const scimFrameworkError = (error: { code?: string; statusCode?: number; message: string }): AppError => {
  if (error instanceof AppError) return error.message === 'Malformed JSON body' ? scimError('invalidSyntax', error.message, error) : error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new AppError('PAYLOAD_TOO_LARGE', 'Request body too large');
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
    return new AppError('VALIDATION', 'Use Content-Type application/scim+json', { status: 415 });
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return scimError('invalidSyntax', error.message);
  }
  return new AppError('INTERNAL', 'Internal error', { cause: error });
};

type Query = Record<string, string | string[] | undefined>;

const single = (query: Query, name: string): string | undefined => {
  const key = Object.keys(query).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : query[key];
  return Array.isArray(value) ? value[0] : value;
};

const integer = (query: Query, name: string): number | undefined => {
  const raw = single(query, name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^-?\d{1,9}$/.test(raw.trim())) throw scimError('invalidValue', `${name} must be an integer`);
  return Number(raw);
};

export type ListRequest = ListQuery & { readonly attributes: string | undefined; readonly excludedAttributes: string | undefined };

/** Reads list parameters from a query string or a `.search` body, parameter names case-insensitively. */
export const listRequestOf = (source: unknown): ListRequest => {
  const query: Query = {};
  if (typeof source === 'object' && source !== null) {
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === 'string' || (Array.isArray(value) && value.every((item) => typeof item === 'string')))
        query[key] = value as string | string[];
      else if (typeof value === 'number') query[key] = String(value);
    }
  }
  const sortOrder = single(query, 'sortOrder');
  if (sortOrder !== undefined && sortOrder !== 'ascending' && sortOrder !== 'descending') {
    throw scimError('invalidValue', 'sortOrder must be ascending or descending');
  }
  const listParam = (name: string): string | undefined => {
    const value = query[Object.keys(query).find((key) => key.toLowerCase() === name.toLowerCase()) ?? ''];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const attributes = listParam('attributes');
  const excludedAttributes = listParam('excludedAttributes');
  assertAttributeNotation('attributes', attributes);
  assertAttributeNotation('excludedAttributes', excludedAttributes);
  return {
    filter: single(query, 'filter'),
    startIndex: integer(query, 'startIndex'),
    count: integer(query, 'count'),
    sortBy: single(query, 'sortBy'),
    sortOrder,
    attributes,
    excludedAttributes,
  };
};

/** The request's own origin (for meta.location when SVC_SCIM_BASE_URL is unset). */
export const requestOrigin = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

export const ifMatchOf = (request: FastifyRequest): string | undefined => {
  const header = request.headers['if-match'];
  return Array.isArray(header) ? header.join(',') : header;
};
