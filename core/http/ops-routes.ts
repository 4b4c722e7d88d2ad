import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';
import type { Actor } from '../ops/define.ts';
import { invoke } from '../ops/dispatch.ts';
import { isOpName, operationEntries, operations } from '../ops/table.ts';
import type { RouteAccess } from './route-policy.ts';

type ActorOf = (request: FastifyRequest) => Actor;

const requestIdHeader = 'x-svc-request-id';

const defaultInput = (request: { body: unknown; query: unknown; params: unknown }): unknown => {
  const body = request.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) return body;
  return { ...(request.query as object), ...((body as object | undefined) ?? {}), ...(request.params as object) };
};

/** Aborted when the client goes away before its reply is written: a long op (a large PII scan) stops working for nobody. */
const abortOnDisconnect = (reply: FastifyReply): AbortSignal => {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
};

const accessOf = (op: { tier: RouteAccess['tier']; scope?: string }): RouteAccess =>
  op.scope === undefined ? { tier: op.tier } : { tier: op.tier, scope: op.scope };

/** The tier of `/api/ops/<name>` is the op's; an unknown name still needs a credential before it is named as unknown. */
const opAccess = (request: FastifyRequest): RouteAccess => {
  const name = (request.params as { name?: string }).name;
  return isOpName(name) ? accessOf(operations[name]) : { tier: 'free' };
};

/**
 * Every op at `POST /api/ops/<name>` (the renderer's HTTP transport: the same envelope IPC returns), and ops
 * with an `http` binding at their public REST path with the spec's statuses and error bodies. Access is
 * checked by the pipeline before the body is read; errors are rendered by its error handler.
 */
export const registerOpRoutes = (fastify: FastifyInstance, app: App, actorOf: ActorOf): void => {
  fastify.post<{ Params: { name: string } }>(
    '/api/ops/:name',
    { config: { svc: { access: opAccess, errors: { body: 'envelope' } } } },
    async (request, reply) => {
      const requestId = request.headers[requestIdHeader];
      const value = await invoke(request.params.name, request.body ?? {}, {
        app,
        actor: actorOf(request),
        signal: abortOnDisconnect(reply),
        ...(typeof requestId === 'string' && requestId.length <= 100 ? { requestId } : {}),
      });
      return { ok: true, value };
    },
  );

  for (const [name, op] of operationEntries()) {
    const binding = op.http;
    if (binding === undefined) continue;
    fastify.route({
      method: binding.method,
      url: binding.path,
      config: {
        svc: {
          access: accessOf(op),
          errors: {
            body: binding.errorField ?? 'error',
            ...(binding.validationStatus === undefined ? {} : { validationStatus: binding.validationStatus }),
          },
        },
      },
      handler: async (request, reply) => {
        const input = (binding.input ?? defaultInput)({
          body: request.body,
          query: request.query,
          params: request.params,
          headers: request.headers,
        });
        const value = await invoke(name, input, { app, actor: actorOf(request), signal: abortOnDisconnect(reply) });
        return reply.code(binding.status ?? 200).send(value);
      },
    });
  }
};
