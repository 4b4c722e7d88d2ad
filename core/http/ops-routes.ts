import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import { AppError, httpStatusFor } from '../errors.ts';
import type { Actor, HttpBinding } from '../ops/define.ts';
import { dispatch, invoke, toAppError } from '../ops/dispatch.ts';
import { operationEntries } from '../ops/table.ts';

type ActorOf = (request: FastifyRequest) => Actor;

const requestIdHeader = 'x-svc-request-id';

const defaultInput = (request: { body: unknown; query: unknown; params: unknown }): unknown => {
  const body = request.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) return body;
  return { ...(request.query as object), ...((body as object | undefined) ?? {}), ...(request.params as object) };
};

/** Status and body for an error on a public REST path, in the spec's shape for that path. */
export const restError = (binding: HttpBinding, error: AppError): { status: number; body: Record<string, string> } => {
  const status = error.status ?? (error.code === 'VALIDATION' ? (binding.validationStatus ?? 400) : httpStatusFor(error.code));
  return { status, body: { [binding.errorField ?? 'error']: error.message } };
};

const sendRestError = (reply: FastifyReply, binding: HttpBinding, error: AppError): FastifyReply => {
  const { status, body } = restError(binding, error);
  if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="svc"');
  return reply.code(status).send(body);
};

/**
 * Every op at `POST /api/ops/<name>` (the renderer's HTTP transport: the same envelope IPC returns), and ops
 * with an `http` binding at their public REST path with the spec's statuses and error bodies.
 */
export const registerOpRoutes = (fastify: FastifyInstance, app: App, actorOf: ActorOf): void => {
  fastify.post<{ Params: { name: string } }>('/api/ops/:name', async (request, reply) => {
    const requestId = request.headers[requestIdHeader];
    const result = await dispatch(request.params.name, request.body ?? {}, {
      app,
      actor: actorOf(request),
      ...(typeof requestId === 'string' && requestId.length <= 100 ? { requestId } : {}),
    });
    const status = result.ok ? 200 : httpStatusFor(result.error.code);
    if (status === 401) reply.header('WWW-Authenticate', 'Bearer realm="svc"');
    return reply.code(status).send(result);
  });

  for (const [name, op] of operationEntries()) {
    const binding = op.http;
    if (binding === undefined) continue;
    fastify.route({
      method: binding.method,
      url: binding.path,
      config: { restBinding: binding },
      handler: async (request, reply) => {
        try {
          const input = (binding.input ?? defaultInput)({
            body: request.body,
            query: request.query,
            params: request.params,
            headers: request.headers,
          });
          const value = await invoke(name, input, { app, actor: actorOf(request) });
          return reply.code(binding.status ?? 200).send(value);
        } catch (error) {
          return sendRestError(reply, binding, toAppError(error, { app, op: name }));
        }
      },
    });
  }
};

/** The REST binding of the route a request hit, if any (error handlers use it to shape framework errors). */
export const restBindingOf = (request: FastifyRequest): HttpBinding | undefined =>
  (request.routeOptions.config as { restBinding?: HttpBinding } | undefined)?.restBinding;

export const sendFrameworkError = (request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply => {
  const binding = restBindingOf(request);
  if (binding !== undefined) return sendRestError(reply, binding, error);
  if (request.url.startsWith('/api/')) {
    return reply.code(error.status ?? httpStatusFor(error.code)).send({ ok: false, error: { code: error.code, message: error.message } });
  }
  return reply.code(error.status ?? httpStatusFor(error.code)).send({ error: error.message });
};

export { AppError };
