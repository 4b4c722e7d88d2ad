import { scimError } from './errors.ts';
import { compileFilter, type Predicate, resolveAttr, resolveSub } from './filter/compile.ts';
import { parseAttrPath, parseFilter, type FilterNode } from './filter/parser.ts';
import { indexKeyOf, type IndexKey } from './filter/plan.ts';
import { type IndexedFilter, planIndexedFilter } from './filter/indexed.ts';
import type { Json } from './normalize.ts';
import type { ResourceKind } from './schema.ts';
import type { ListQuery, ResourcePage } from './types.ts';

/** RFC 7644 3.4.2.4 with spec section 8: 1-based start (below 1 means 1), count 0..100, default and cap 100. */
export const maxPageSize = 100;

export const pageParams = (query: ListQuery): { startIndex: number; count: number } => {
  const start = query.startIndex ?? 1;
  const count = query.count ?? maxPageSize;
  if (!Number.isInteger(start) || !Number.isInteger(count)) throw scimError('invalidValue', 'startIndex and count must be integers');
  return { startIndex: Math.max(1, start), count: Math.min(maxPageSize, Math.max(0, count)) };
};

export type PreparedFilter = {
  readonly predicate: Predicate;
  readonly indexKey: IndexKey | undefined;
  /** The same filter over the user attribute index; undefined for groups or unindexed attributes. */
  readonly indexed: IndexedFilter | undefined;
};

/** Parses and compiles a filter once per request (validating it in full first); undefined when there is none. */
export const prepareFilter = (kind: ResourceKind, filter: string | undefined): PreparedFilter | undefined => {
  if (filter === undefined || filter.trim() === '') return undefined;
  const node: FilterNode = parseFilter(filter);
  const predicate = compileFilter(node, kind);
  return { predicate, indexKey: indexKeyOf(node, kind), indexed: kind === 'User' ? planIndexedFilter(node) : undefined };
};

const sortKey = (kind: ResourceKind, sortBy: string): ((resource: Json) => string | number | boolean | undefined) => {
  const path = parseAttrPath(sortBy, 'invalidValue');
  const { def, extensionUrn } = resolveAttr(kind, path, 'invalidValue');
  const sub =
    path.sub === undefined
      ? def.type === 'complex'
        ? resolveSub(def, 'value', 'invalidValue')
        : undefined
      : resolveSub(def, path.sub, 'invalidValue');
  const leaf = sub ?? def;
  return (resource) => {
    const holder = extensionUrn === undefined ? resource : (resource[extensionUrn] as Json | undefined);
    let value = holder?.[def.name];
    if (Array.isArray(value)) value = (value.find((item: Json) => item['primary'] === true) ?? value[0]) as unknown;
    if (sub !== undefined) value = (value as Json | undefined)?.[sub.name];
    if (typeof value === 'string') return leaf.caseExact ? value : value.toLowerCase();
    return typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
  };
};

/** RFC 7644 3.4.2.3: sorts by one attribute; resources without a value sort last ascending. */
export const sortResources = (kind: ResourceKind, resources: Json[], query: ListQuery): Json[] => {
  if (query.sortBy === undefined || query.sortBy === '') return resources;
  const key = sortKey(kind, query.sortBy);
  const direction = query.sortOrder === 'descending' ? -1 : 1;
  const keyed = resources.map((resource) => ({ resource, key: key(resource) }));
  keyed.sort((a, b) => {
    if (a.key === b.key) return 0;
    if (a.key === undefined) return 1;
    if (b.key === undefined) return -1;
    return (a.key < b.key ? -1 : 1) * direction;
  });
  return keyed.map((entry) => entry.resource);
};

/** The requested page of an already filtered (and sorted) list. */
export const pageOf = (resources: readonly Json[], query: ListQuery): ResourcePage => {
  const { startIndex, count } = pageParams(query);
  return { totalResults: resources.length, startIndex, resources: resources.slice(startIndex - 1, startIndex - 1 + count) };
};
