import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import type { ProtocolRoutes } from '../../http/protocol-routes.ts';
import { scimBaseUrl } from './base-url.ts';
import { resourceTypes, schemaDocuments, serviceProviderConfig } from './discovery.ts';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup, replaceGroup } from './groups.ts';
import type { RoutePolicy } from '../../http/route-policy.ts';
import { ifMatchOf, listRequestOf, requestOrigin, sendScim } from './http-support.ts';
import type { Json } from './normalize.ts';
import { project } from './projection.ts';
import { type ScimPath, scimPathOf } from './path.ts';
import { listResponseUrn, type ResourceKind } from './schema.ts';
import type { ListQuery, ResourcePage } from './types.ts';
import { createUser, deleteUser, getUser, listUsers, patchUser, replaceUser } from './users.ts';

type Store = {
  readonly kind: ResourceKind;
  readonly list: (app: App, query: ListQuery, base: string) => Promise<ResourcePage>;
  readonly create: (app: App, body: unknown, base: string) => Promise<Json>;
  readonly get: (app: App, id: string, base: string) => Promise<Json>;
  readonly replace: (app: App, id: string, body: unknown, base: string, ifMatch?: string) => Promise<Json>;
  readonly patch: (app: App, id: string, body: unknown, base: string, ifMatch?: string) => Promise<Json>;
  readonly remove: (app: App, id: string, ifMatch?: string) => Promise<void>;
};

const stores: Readonly<Record<'users' | 'groups', Store>> = {
  users: { kind: 'User', list: listUsers, create: createUser, get: getUser, replace: replaceUser, patch: patchUser, remove: deleteUser },
  groups: {
    kind: 'Group',
    list: listGroups,
    create: createGroup,
    get: getGroup,
    replace: replaceGroup,
    patch: patchGroup,
    remove: deleteGroup,
  },
};

/**
 * Endpoint names are matched case-insensitively (Entra and older clients send `/users`, `/groups`), and the
 * discovery endpoint answers under its SCIM 1.1 and vendor spellings too.
 */
const endpointOf = (name: string): 'users' | 'groups' | 'config' | 'types' | 'schemas' | undefined => {
  const lower = name.toLowerCase();
  if (lower === 'users' || lower === 'groups') return lower;
  if (['serviceproviderconfig', 'serviceproviderconfigs', 'serviceconfiguration', 'serviceconfig'].includes(lower)) return 'config';
  if (lower === 'resourcetypes') return 'types';
  if (lower === 'schemas') return 'schemas';
  return undefined;
};

const unknownEndpoint = (name: string): AppError => new AppError('NOT_FOUND', `No SCIM endpoint /${name.slice(0, 100)}`);

type Handler = (request: FastifyRequest, reply: FastifyReply, base: string) => FastifyReply | Promise<FastifyReply>;
type PathHandler = (request: FastifyRequest, reply: FastifyReply, base: string, path: ScimPath) => FastifyReply | Promise<FastifyReply>;

const listMessage = (page: ResourcePage, resources: Json[]): Json => ({
  schemas: [listResponseUrn],
  totalResults: page.totalResults,
  startIndex: page.startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});

const sendResource = (reply: FastifyReply, status: number, store: Store, resource: Json, request: FastifyRequest): FastifyReply => {
  const meta = resource['meta'] as { version: string; location: string };
  const { attributes, excludedAttributes } = listRequestOf(request.query);
  reply.header('etag', meta.version);
  if (status === 201) reply.header('location', meta.location);
  return sendScim(reply, status, project(store.kind, resource, attributes, excludedAttributes));
};

/** Methods each SCIM path supports; any other gets 405 with `Allow` (before its body is read). */
const allowedMethods = (request: FastifyRequest): readonly string[] | undefined => {
  const path = scimPathOf(request.url);
  const endpoint = path === undefined ? undefined : endpointOf(path.resource);
  if (path === undefined || endpoint === undefined) return undefined;
  if (endpoint !== 'users' && endpoint !== 'groups') return ['GET'];
  if (path.id === undefined) return ['GET', 'POST'];
  return path.id === '.search' ? ['POST'] : ['GET', 'PUT', 'PATCH', 'DELETE'];
};

/**
 * IdP provisioning clients: a key or token with the `scim` scope, or an admin. The pipeline checks that (401
 * with `Bearer realm="SCIM"`, 403) and the method before the body is read; every error is a SCIM error body.
 */
const scimPolicy: RoutePolicy = {
  access: { tier: 'admin', scope: 'scim' },
  errors: { body: 'scim', realm: 'SCIM' },
  allow: allowedMethods,
};

export const scimRoutes: ProtocolRoutes = async (fastify, { app }) => {
  const guarded =
    (handler: Handler) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      listRequestOf(request.query); // bad list or projection parameters are refused before any write
      return handler(request, reply, scimBaseUrl(app, requestOrigin(request)));
    };

  const list = async (store: Store, source: unknown, reply: FastifyReply, base: string): Promise<FastifyReply> => {
    const query = listRequestOf(source);
    const page = await store.list(app, query, base);
    const resources = page.resources.map((resource) => project(store.kind, resource, query.attributes, query.excludedAttributes));
    return sendScim(reply, 200, listMessage(page, resources));
  };

  const collection: PathHandler = async (request, reply, base, { resource }) => {
    const endpoint = endpointOf(resource);
    if (endpoint === undefined) throw unknownEndpoint(resource);
    if (endpoint === 'users' || endpoint === 'groups') {
      const store = stores[endpoint];
      if (request.method === 'GET') return list(store, request.query, reply, base);
      return sendResource(reply, 201, store, await store.create(app, request.body, base), request);
    }
    if (endpoint === 'config') return sendScim(reply, 200, serviceProviderConfig(base));
    const documents = endpoint === 'types' ? resourceTypes(base) : schemaDocuments(base);
    return sendScim(reply, 200, listMessage({ totalResults: documents.length, startIndex: 1, resources: documents }, documents));
  };

  const item: PathHandler = async (request, reply, base, { resource, id = '' }) => {
    const endpoint = endpointOf(resource);
    if (endpoint === undefined) throw unknownEndpoint(resource);
    if (endpoint === 'users' || endpoint === 'groups') {
      const store = stores[endpoint];
      const ifMatch = ifMatchOf(request);
      switch (request.method) {
        case 'GET':
          return sendResource(reply, 200, store, await store.get(app, id, base), request);
        case 'POST':
          return list(store, request.body, reply, base);
        case 'PUT':
          return sendResource(reply, 200, store, await store.replace(app, id, request.body, base, ifMatch), request);
        case 'PATCH':
          return sendResource(reply, 200, store, await store.patch(app, id, request.body, base, ifMatch), request);
        default:
          await store.remove(app, id, ifMatch);
          return reply.code(204).send();
      }
    }
    const documents = endpoint === 'types' ? resourceTypes(base) : endpoint === 'schemas' ? schemaDocuments(base) : [];
    const found = documents.find((document) => String(document['id']).toLowerCase() === id.toLowerCase());
    if (found === undefined) throw unknownEndpoint(`${resource}/${id}`);
    return sendScim(reply, 200, found);
  };

  // One route for every path below the base, so trailing and repeated slashes route like the canonical path.
  const dispatch: Handler = (request, reply, base) => {
    const path = scimPathOf(request.url);
    if (path === undefined) throw unknownEndpoint(request.url.split('?')[0]?.replace(/^\/scim\/v2\/?/i, '') ?? '');
    return path.id === undefined ? collection(request, reply, base, path) : item(request, reply, base, path);
  };
  fastify.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/scim/v2/*',
    config: { svc: scimPolicy },
    handler: guarded(dispatch),
  });
};
