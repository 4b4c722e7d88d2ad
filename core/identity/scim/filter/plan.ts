import type { ResourceKind } from '../schema.ts';
import { groupSchemaUrn, userSchemaUrn } from '../schema.ts';
import type { FilterNode } from './parser.ts';

/** An equality that an index answers: the candidates it selects are then checked against the whole filter. */
export type IndexKey = { readonly attr: 'id' | 'userName' | 'externalId'; readonly value: string };

const indexed: Readonly<Record<ResourceKind, readonly IndexKey['attr'][]>> = {
  User: ['id', 'userName', 'externalId'],
  Group: ['id', 'externalId'],
};
const coreUrn: Readonly<Record<ResourceKind, string>> = { User: userSchemaUrn, Group: groupSchemaUrn };

/**
 * Finds `id eq`, `userName eq` or `externalId eq` at the top of the filter or in one branch of a top-level
 * `and`: such a filter can only match resources with that key, so an index look-up narrows the scan to them.
 */
export const indexKeyOf = (node: FilterNode, kind: ResourceKind): IndexKey | undefined => {
  if (node.kind === 'and') return indexKeyOf(node.left, kind) ?? indexKeyOf(node.right, kind);
  if (node.kind !== 'compare' || node.op !== 'eq' || typeof node.value !== 'string' || node.path.sub !== undefined) return undefined;
  if (node.path.urn !== undefined && node.path.urn !== coreUrn[kind]) return undefined;
  const attr = indexed[kind].find((name) => name.toLowerCase() === node.path.attr.toLowerCase());
  return attr === undefined ? undefined : { attr, value: node.value };
};
