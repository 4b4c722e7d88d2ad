import { z } from 'zod';
import type { Json } from './normalize.ts';
import { enterpriseUserUrn, groupSchemaUrn, userSchemaUrn } from './schema.ts';
import type { SCIMGroup, SCIMUser } from './types.ts';

/** A stored user, as both back ends return it (INTEGER columns come back as JS numbers on PostgreSQL too). */
export const userRowSchema = z.object({
  id: z.string(),
  /** Small stable integer key of the filter index (filter/attr-index.ts). */
  uid: z.number().int(),
  user_name: z.string(),
  external_id: z.string().nullable(),
  active: z.number().int(),
  resource: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserRow = z.output<typeof userRowSchema>;

export const groupRowSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  external_id: z.string().nullable(),
  resource: z.string(),
  version: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GroupRow = z.output<typeof groupRowSchema>;

export type GroupRef = { readonly id: string; readonly displayName: string };
export type MemberRef = { readonly id: string; readonly userName: string };

/** A weak ETag from the row version (RFC 7644 3.14). */
export const etagOf = (version: number): string => `W/"${version}"`;

const meta = (
  resourceType: 'User' | 'Group',
  row: { id: string; version: number; created_at: string; updated_at: string },
  baseUrl: string,
): Json => ({
  resourceType,
  created: row.created_at,
  lastModified: row.updated_at,
  location: `${baseUrl}/${resourceType}s/${row.id}`,
  version: etagOf(row.version),
});

/** The full RFC 7643 User resource; `groups` is derived from memberships (readOnly). */
export const userToWire = (row: UserRow, groups: readonly GroupRef[], baseUrl: string): Json => {
  const stored = JSON.parse(row.resource) as Json;
  const schemas = stored[enterpriseUserUrn] === undefined ? [userSchemaUrn] : [userSchemaUrn, enterpriseUserUrn];
  return {
    schemas,
    id: row.id,
    ...stored,
    ...(groups.length === 0
      ? {}
      : {
          groups: groups.map((group) => ({
            value: group.id,
            display: group.displayName,
            $ref: `${baseUrl}/Groups/${group.id}`,
            type: 'direct',
          })),
        }),
    meta: meta('User', row, baseUrl),
  };
};

/** The full RFC 7643 Group resource; `members` come from the membership table, displayed by userName. */
export const groupToWire = (row: GroupRow, members: readonly MemberRef[], baseUrl: string): Json => ({
  schemas: [groupSchemaUrn],
  id: row.id,
  ...(JSON.parse(row.resource) as Json),
  ...(members.length === 0
    ? {}
    : {
        members: members.map((member) => ({
          value: member.id,
          display: member.userName,
          $ref: `${baseUrl}/Users/${member.id}`,
          type: 'User',
        })),
      }),
  meta: meta('Group', row, baseUrl),
});

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** The spec 2.5 SCIMUser record of a wire resource. */
export const userRecord = (resource: Json): SCIMUser => {
  const name = resource['name'] as Json | undefined;
  const metaOf = resource['meta'] as Json;
  return {
    id: text(resource['id']),
    user_name: text(resource['userName']),
    display_name:
      text(resource['displayName']) ||
      text(name?.['formatted']) ||
      [text(name?.['givenName']), text(name?.['familyName'])].filter(Boolean).join(' '),
    emails: list(resource['emails']).map((email) => ({ value: text(email['value']), primary: email['primary'] === true })),
    active: resource['active'] !== false,
    groups: list(resource['groups']).map((group) => text(group['value'])),
    created_at: text(metaOf['created']),
    updated_at: text(metaOf['lastModified']),
  };
};

/** The spec 2.5 SCIMGroup record of a wire resource. */
export const groupRecord = (resource: Json): SCIMGroup => ({
  id: text(resource['id']),
  display_name: text(resource['displayName']),
  members: list(resource['members']).map((member) => ({ value: text(member['value']), display: text(member['display']) })),
  created_at: text((resource['meta'] as Json)['created']),
});
