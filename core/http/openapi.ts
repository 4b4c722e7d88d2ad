import { z } from 'zod';
import type { AnyOperation } from '../ops/define.ts';
import { operationEntries } from '../ops/table.ts';
import { version } from '../version.ts';

const toOpenApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

const inputSchema = (op: AnyOperation): unknown => {
  try {
    return z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' });
  } catch {
    return { type: 'object' };
  }
};

/**
 * OpenAPI 3.1 document derived from the operations table: every op's RPC route and its public REST path.
 * Protocol routes (SCIM, SAML, OIDC, uploads) are described in docs/api.md instead.
 */
export const openApiDocument = (): Record<string, unknown> => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, op] of operationEntries()) {
    const schema = inputSchema(op);
    const security = op.tier === 'public' ? [] : [{ bearer: [] }, { session: [] }];
    paths[`/api/ops/${name}`] = {
      post: {
        operationId: name,
        summary: op.summary,
        description: `Tier: ${op.tier}${op.scope ? ` (or scope ${op.scope})` : ''}. Returns the {ok, value} | {ok: false, error} envelope.`,
        security,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: { '200': { description: 'ok: true, value' }, default: { description: 'ok: false, error: {code, message}' } },
      },
    };
    if (op.http !== undefined) {
      const path = toOpenApiPath(op.http.path);
      const params = [...op.http.path.matchAll(/:([A-Za-z_]+)/g)].map((match) => ({
        name: match[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
      paths[path] ??= {};
      const method = op.http.method.toLowerCase();
      (paths[path] as Record<string, unknown>)[method] = {
        operationId: `${name}.rest`,
        summary: op.summary,
        description: `Tier: ${op.tier}. Errors: { "${op.http.errorField ?? 'error'}": message }.`,
        security,
        parameters: params,
        ...(method === 'get' || method === 'delete' ? {} : { requestBody: { content: { 'application/json': { schema } } } }),
        responses: { [String(op.http.status ?? 200)]: { description: 'Success' } },
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Compliance Workbench local API', version },
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (svc_...) or session JWT' },
        session: { type: 'apiKey', in: 'cookie', name: 'svc_session' },
      },
    },
    paths,
  };
};
