import type { FastifyReply, FastifyRequest } from 'fastify';
import { scimError } from './errors.ts';
import { assertAttributeNotation } from './projection.ts';
import type { ListQuery } from './types.ts';

export const scimContentType = 'application/scim+json; charset=utf-8';

/** Sends a resource or message as application/scim+json. */
export const sendScim = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).header('content-type', scimContentType).send(JSON.stringify(body));

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
