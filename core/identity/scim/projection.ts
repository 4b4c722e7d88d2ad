import { scimError } from './errors.ts';
import { resolveAttr, resolveSub } from './filter/compile.ts';
import { parseAttrPath } from './filter/parser.ts';
import type { Json } from './normalize.ts';
import type { ResourceKind } from './schema.ts';

type Selector = { readonly holderKey: string | undefined; readonly attr: string; readonly sub: string | undefined };

/**
 * `attributes` and `excludedAttributes` take attribute names in attribute notation (RFC 7644 3.9, 3.10:
 * `emails`, `emails.value`, `urn:...:manager.value`), not value filters. A value path such as
 * `emails[type eq "work"]` would otherwise select nothing and leave the client with only `id`; it is refused
 * instead, before any write, as 400 invalidFilter naming the filter parameter to use.
 */
export const assertAttributeNotation = (parameter: string, list: string | undefined): void => {
  if (list === undefined || !/[[\]]/.test(list)) return;
  throw scimError(
    'invalidFilter',
    `${parameter} takes attribute names (RFC 7644 3.10), not value filters like '${list.slice(0, 100)}'; select the attribute (e.g. emails) and use filter= to choose resources`,
  );
};

/**
 * Reads a comma-separated `attributes` / `excludedAttributes` list (RFC 7644 3.9) into canonical selectors.
 * Names this server does not know are skipped: they select nothing, which is what a client asking for an
 * attribute the resource lacks would see anyway.
 */
const selectorsOf = (kind: ResourceKind, list: string): Selector[] =>
  list
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
    .flatMap((item) => {
      try {
        const path = parseAttrPath(item, 'invalidValue');
        const { def, extensionUrn } = resolveAttr(kind, path, 'invalidValue');
        const sub = path.sub === undefined ? undefined : resolveSub(def, path.sub, 'invalidValue').name;
        return [{ holderKey: extensionUrn, attr: def.name, sub }];
      } catch {
        return [];
      }
    });

const alwaysReturned = new Set(['schemas', 'id']);

const pick = (resource: Json, selector: Selector, into: Json): void => {
  const source = selector.holderKey === undefined ? resource : (resource[selector.holderKey] as Json | undefined);
  const value = source?.[selector.attr];
  if (value === undefined) return;
  if (selector.holderKey !== undefined && into[selector.holderKey] === undefined) into[selector.holderKey] = {};
  const target = selector.holderKey === undefined ? into : (into[selector.holderKey] as Json);
  if (selector.sub === undefined) {
    target[selector.attr] = value;
    return;
  }
  const sub = selector.sub;
  if (Array.isArray(value)) {
    target[selector.attr] = (value as Json[]).map((item, index) => ({
      ...((target[selector.attr] as Json[] | undefined)?.[index] ?? {}),
      [sub]: item[sub],
    }));
  } else if (typeof value === 'object' && value !== null) {
    target[selector.attr] = { ...((target[selector.attr] as Json | undefined) ?? {}), [sub]: (value as Json)[sub] };
  }
};

const drop = (resource: Json, selector: Selector): void => {
  const holder = selector.holderKey === undefined ? resource : (resource[selector.holderKey] as Json | undefined);
  if (holder === undefined || alwaysReturned.has(selector.attr)) return;
  if (selector.sub === undefined) {
    delete holder[selector.attr];
    return;
  }
  const value = holder[selector.attr];
  const items = Array.isArray(value) ? (value as Json[]) : typeof value === 'object' && value !== null ? [value as Json] : [];
  for (const item of items) delete item[selector.sub];
};

/** Applies `attributes` (only these, plus schemas and id) or else `excludedAttributes` to a wire resource. */
export const project = (kind: ResourceKind, resource: Json, attributes: string | undefined, excluded: string | undefined): Json => {
  if (attributes !== undefined && attributes.trim() !== '') {
    const out: Json = { schemas: resource['schemas'], id: resource['id'] };
    for (const selector of selectorsOf(kind, attributes)) pick(resource, selector, out);
    return out;
  }
  if (excluded !== undefined && excluded.trim() !== '') {
    const copy = structuredClone(resource);
    for (const selector of selectorsOf(kind, excluded)) drop(copy, selector);
    return copy;
  }
  return resource;
};
