import { maxPageSize } from './list.ts';
import type { Json } from './normalize.ts';
import { maxPatchOperations } from './patch.ts';
import { type AttrDef, enterpriseUserUrn, groupSchemaUrn, type ResourceKind, schemasOf, userSchemaUrn } from './schema.ts';

/** Discovery documents of RFC 7644 section 4, generated from the same schema table the server enforces. */
const spcUrn = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const resourceTypeUrn = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const schemaUrn = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export const serviceProviderConfig = (baseUrl: string): Json => ({
  schemas: [spcUrn],
  documentationUri: `${baseUrl.replace(/\/scim\/v2$/, '')}/docs/api/scim.md`,
  patch: { supported: true },
  bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
  filter: { supported: true, maxResults: maxPageSize },
  changePassword: { supported: false },
  sort: { supported: true },
  etag: { supported: true },
  authenticationSchemes: [
    {
      type: 'oauthbearertoken',
      name: 'Bearer token',
      description: `An API key with the "scim" scope (or an admin key), sent as "Authorization: Bearer <key>". PATCH takes at most ${maxPatchOperations} operations.`,
      primary: true,
    },
  ],
  meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
});

const resourceType = (kind: ResourceKind, baseUrl: string): Json => {
  const [core, ...extensions] = schemasOf[kind];
  return {
    schemas: [resourceTypeUrn],
    id: kind,
    name: kind,
    endpoint: `/${kind}s`,
    description: kind === 'User' ? 'User Account' : 'Group',
    schema: core?.urn,
    schemaExtensions: extensions.map((extension) => ({ schema: extension.urn, required: false })),
    meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/${kind}` },
  };
};

export const resourceTypes = (baseUrl: string): Json[] => [resourceType('User', baseUrl), resourceType('Group', baseUrl)];

const describeAttr = (def: AttrDef): Json => ({
  name: def.name,
  type: def.type,
  multiValued: def.multiValued,
  description: def.name,
  required: def.required,
  caseExact: def.caseExact,
  mutability: def.mutability,
  returned: def.returned,
  uniqueness: def.uniqueness,
  ...(def.type === 'reference' ? { referenceTypes: ['external', 'uri'] } : {}),
  ...(def.subAttributes === undefined ? {} : { subAttributes: def.subAttributes.map(describeAttr) }),
});

const commonNames = new Set(['id', 'externalId', 'meta']);

export const schemaDocuments = (baseUrl: string): Json[] =>
  [...schemasOf.User, ...schemasOf.Group].map((schema) => ({
    schemas: [schemaUrn],
    id: schema.urn,
    name: schema.name,
    description:
      schema.urn === enterpriseUserUrn
        ? 'Enterprise User'
        : schema.urn === userSchemaUrn
          ? 'User Account'
          : schema.urn === groupSchemaUrn
            ? 'Group'
            : schema.name,
    // RFC 7643 3.1: id, externalId and meta are common attributes, not part of a schema definition.
    attributes: schema.attributes.filter((def) => !commonNames.has(def.name)).map(describeAttr),
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${schema.urn}` },
  }));
