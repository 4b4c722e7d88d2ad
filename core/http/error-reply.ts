import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { AppError, httpStatusFor } from '../errors.ts';
import { scimError, scimTypeOf } from '../identity/scim/errors.ts';
import { errorUrn } from '../identity/scim/schema.ts';
import { type ErrorShape, policyOf } from './route-policy.ts';

type FrameworkError = { code?: string; statusCode?: number; message: string };

/**
 * Anything thrown on an HTTP route as an AppError with its code kept: AppErrors as they are, Fastify's parser
 * errors as the matching client error, everything else INTERNAL (the original stays the cause, for the log).
 */
export const toHttpError = (error: unknown, shape: ErrorShape): AppError => {
  const scim = shape.body === 'scim';
  if (error instanceof AppError) return error;
  const framework = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as FrameworkError;
  switch (framework.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', scim ? 'Request body too large' : 'request_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('VALIDATION', scim ? 'Use Content-Type application/scim+json' : 'Unsupported Content-Type', { status: 415 });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION', 'Content-Length does not match the body');
    default:
      if (framework.statusCode !== undefined && framework.statusCode >= 400 && framework.statusCode < 500) {
        return scim
          ? scimError('invalidSyntax', framework.message)
          : new AppError('VALIDATION', framework.message, { status: framework.statusCode });
      }
      return new AppError('INTERNAL', 'Internal error', { cause: error });
  }
};

export const statusOf = (error: AppError, shape: ErrorShape): number =>
  error.status ??
  (error.code === 'VALIDATION' && shape.validationStatus !== undefined ? shape.validationStatus : httpStatusFor(error.code));

const escapeHtml = (value: string): string =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const htmlPage = (title: string, body: string, head = ''): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${head}</head>` +
  `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;

const wantsJson = (request: FastifyRequest): boolean => (request.headers.accept ?? '').includes('application/json');

const bodyFor = (request: FastifyRequest, error: AppError, status: number, shape: ErrorShape): { type?: string; body: unknown } => {
  // Unknown errors already read "Internal error"; an AppError's own message is written for its caller.
  const message = error.message;
  switch (shape.body) {
    case 'envelope':
      return { body: { ok: false, error: { code: error.code, message } } };
    case 'scim': {
      const scimType = scimTypeOf(error);
      return {
        type: 'application/scim+json; charset=utf-8',
        body: JSON.stringify({
          schemas: [errorUrn],
          status: String(status),
          ...(scimType === undefined ? {} : { scimType }),
          detail: error.code === 'INTERNAL' ? 'Internal error' : message,
        }),
      };
    }
    case 'html':
      if (wantsJson(request)) return { body: { error: message } };
      return {
        type: 'text/html; charset=utf-8',
        body: htmlPage('Request failed', `<p role="alert">${escapeHtml(message)}</p><p><a href="/">Back to the workbench</a></p>`),
      };
    case 'detail':
      return { body: { detail: message } };
    default: {
      const errors = error.detail?.['errors'];
      return { body: errors === undefined ? { error: message } : { error: message, errors } };
    }
  }
};

/**
 * The one error renderer of the HTTP API: status from the error's code (or its explicit status), body in the
 * route's declared shape, a Bearer challenge on 401, `Allow` on 405, and every 5xx logged with its stack and
 * the request id. Errors of a request whose body was never read close the connection, so an unread (possibly
 * huge or trickling) body cannot hold the socket.
 */
export const sendError = (app: App, request: FastifyRequest, reply: FastifyReply, thrown: unknown, shape?: ErrorShape): FastifyReply => {
  const errors = shape ?? policyOf(request).errors;
  const error = toHttpError(thrown, errors);
  const status = statusOf(error, errors);
  if (status >= 500) {
    const cause = error.code === 'INTERNAL' && error.cause !== undefined ? error.cause : error;
    app.log.error({ err: cause, requestId: request.id, method: request.method, path: request.url.split('?')[0] }, 'request failed');
  }
  if (status === 401) {
    const realm = errors.realm ?? 'svc';
    const invalid = errors.body === 'scim' && error.detail?.['invalidToken'] === true;
    reply.header('WWW-Authenticate', `Bearer realm="${realm}"${invalid ? ', error="invalid_token"' : ''}`);
  }
  const allow = error.detail?.['allow'];
  if (status === 405 && typeof allow === 'string') reply.header('Allow', allow);
  const { type, body } = bodyFor(request, error, status, errors);
  if (type !== undefined) reply.type(type);
  return reply.code(status).send(body);
};
