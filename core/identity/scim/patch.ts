import { isDeepStrictEqual } from 'node:util';
import { scimError, scimTypeOf } from './errors.ts';
import { compileElementFilter, containerOf, resolveAttr, resolveSub } from './filter/compile.ts';
import { type FilterNode, type PatchPath, parsePatchPath } from './filter/parser.ts';
import { coerceItem, coerceValue, isObject, type Json, onePrimary } from './normalize.ts';
import { type AttrDef, patchOpUrn, type ResourceKind, schemasOf } from './schema.ts';

export type PatchOperation = { readonly op: 'add' | 'remove' | 'replace'; readonly path: string | undefined; readonly value: unknown };

export const maxPatchOperations = 1000;

/**
 * Reads a PatchOp message (RFC 7644 3.5.2) or a bare list of operations (the SDK's `patch_ops`). Op names are
 * case-insensitive because Entra sends "Replace", "Add", "Remove".
 */
export const parsePatchRequest = (body: unknown): PatchOperation[] => {
  let operations: unknown = body;
  if (isObject(body)) {
    const schemas = body['schemas'];
    if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(patchOpUrn))) {
      throw scimError('invalidSyntax', `A PATCH body must declare the schema ${patchOpUrn}`);
    }
    operations = body['Operations'] ?? body['operations'];
  }
  if (!Array.isArray(operations) || operations.length === 0) {
    throw scimError('invalidSyntax', 'A PATCH request needs a non-empty "Operations" array');
  }
  if (operations.length > maxPatchOperations) {
    throw scimError('tooMany', `A PATCH request may carry at most ${maxPatchOperations} operations`);
  }
  return operations.map((raw, index) => {
    if (!isObject(raw)) throw scimError('invalidSyntax', `Operation ${index} must be an object`);
    const op = typeof raw['op'] === 'string' ? raw['op'].toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace') {
      throw scimError('invalidSyntax', `Operation ${index} has an unknown op; use add, remove or replace`);
    }
    const path = raw['path'];
    if (path !== undefined && path !== null && (typeof path !== 'string' || path.trim() === '')) {
      throw scimError('invalidPath', `Operation ${index} has a path that is not a non-empty string`);
    }
    if (op !== 'remove' && raw['value'] === undefined) throw scimError('invalidValue', `Operation ${index} (${op}) needs a value`);
    return { op, path: typeof path === 'string' ? path.trim() : undefined, value: raw['value'] };
  });
};

const listOf = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : value === undefined ? [] : [value as Json]);
const sameItem = (a: Json, b: Json): boolean =>
  a['value'] !== undefined && b['value'] !== undefined ? isDeepStrictEqual(a['value'], b['value']) : isDeepStrictEqual(a, b);

/** A filter that is only `sub eq "x"` conjunctions describes the element to create when nothing matches. */
const seedOf = (node: FilterNode): Json | undefined => {
  if (node.kind === 'compare' && node.op === 'eq' && node.path.sub === undefined && node.value !== null)
    return { [node.path.attr]: node.value };
  if (node.kind !== 'and') return undefined;
  const left = seedOf(node.left);
  const right = seedOf(node.right);
  return left === undefined || right === undefined ? undefined : { ...left, ...right };
};

type Target = { readonly def: AttrDef; readonly holder: Json; readonly parsed: PatchPath };

class Patcher {
  constructor(
    private readonly kind: ResourceKind,
    readonly resource: Json,
  ) {}

  target(pathText: string, op: PatchOperation['op']): Target {
    const parsed = parsePatchPath(pathText);
    const { def, extensionUrn } = resolveAttr(this.kind, parsed.path, 'invalidPath');
    if (def.mutability === 'readOnly') throw scimError('mutability', `Attribute '${def.name}' is read-only`);
    let holder = containerOf(this.resource, extensionUrn);
    if (holder === undefined) {
      if (op === 'remove') holder = {};
      else this.resource[extensionUrn as string] = holder = {};
    }
    return { def, holder, parsed };
  }

  apply(operation: PatchOperation): void {
    if (operation.path === undefined) this.applyWithoutPath(operation);
    else this.applyAt(this.target(operation.path, operation.op), operation);
  }

  /** No path: the value is an object of attributes; keys may themselves be paths (Entra: "name.givenName"). */
  applyWithoutPath(operation: PatchOperation): void {
    if (operation.op === 'remove') throw scimError('noTarget', 'A remove operation needs a path');
    if (!isObject(operation.value)) throw scimError('invalidValue', `A ${operation.op} without a path needs an object value`);
    for (const [key, value] of Object.entries(operation.value)) {
      if (key === 'schemas') continue;
      const extension = schemasOf[this.kind].find((schema) => schema.urn.toLowerCase() === key.toLowerCase());
      if (extension !== undefined && isObject(value)) {
        for (const [sub, subValue] of Object.entries(value))
          this.apply({ op: operation.op, path: `${extension.urn}:${sub}`, value: subValue });
        continue;
      }
      const parsed = parsePatchPath(key);
      const { def } = resolveAttr(this.kind, parsed.path, 'invalidPath');
      // Okta's group push repeats the id in a replace; an unchanged read-only value is not a modification.
      if (def.mutability === 'readOnly' && parsed.path.sub === undefined && isDeepStrictEqual(this.resource[def.name], value)) continue;
      this.apply({ op: operation.op, path: key, value });
    }
  }

  applyAt({ def, holder, parsed }: Target, operation: PatchOperation): void {
    const { op, value } = operation;
    if (parsed.filter !== undefined) {
      this.applyFiltered(def, holder, parsed, operation);
      return;
    }
    const sub = parsed.path.sub === undefined ? undefined : resolveSub(def, parsed.path.sub, 'invalidPath');
    if (sub !== undefined) {
      if (def.multiValued) throw scimError('invalidPath', `Use a value filter to address '${def.name}.${sub.name}'`);
      const complex = isObject(holder[def.name]) ? (holder[def.name] as Json) : {};
      if (op === 'remove') delete complex[sub.name];
      else complex[sub.name] = coerceValue(sub, value);
      holder[def.name] = complex;
      return;
    }
    if (op === 'remove') {
      // Entra removes members with path "members" and the members to drop as the value.
      if (def.multiValued && value !== undefined && value !== null) {
        const drop = listOf(coerceValue(def, value));
        holder[def.name] = listOf(holder[def.name]).filter((item) => !drop.some((gone) => sameItem(item, gone)));
      } else delete holder[def.name];
      return;
    }
    const coerced = coerceValue(def, value);
    if (def.multiValued && op === 'add') {
      const current = listOf(holder[def.name]);
      const added = listOf(coerced).filter((item) => !current.some((existing) => sameItem(existing, item)));
      holder[def.name] = onePrimary([...current, ...added]);
    } else if (!def.multiValued && def.type === 'complex' && isObject(holder[def.name])) {
      holder[def.name] = { ...(holder[def.name] as Json), ...(coerced as Json) };
    } else holder[def.name] = coerced;
  }

  /** `attr[filter]` or `attr[filter].sub`. */
  applyFiltered(def: AttrDef, holder: Json, parsed: PatchPath, { op, value }: PatchOperation): void {
    if (!def.multiValued || def.type !== 'complex')
      throw scimError('invalidPath', `'${def.name}' is not multi-valued; it takes no value filter`);
    const filter = parsed.filter as FilterNode;
    const matches = this.matcher(def, filter);
    const items = listOf(holder[def.name]);
    const hits = items.filter(matches);
    const sub = parsed.subAfterFilter === undefined ? undefined : resolveSub(def, parsed.subAfterFilter, 'invalidPath');
    if (op === 'remove') {
      holder[def.name] =
        sub === undefined
          ? items.filter((item) => !hits.includes(item))
          : items.map((item) => (hits.includes(item) ? this.without(item, sub.name) : item));
      return;
    }
    if (hits.length === 0) {
      const seed = sub === undefined ? undefined : seedOf(filter);
      if (seed === undefined) throw scimError('noTarget', `No value of '${def.name}' matches the filter`);
      holder[def.name] = onePrimary([...items, ...(coerceValue(def, { ...seed, [(sub as AttrDef).name]: value }) as Json[])]);
      return;
    }
    const replacement = sub === undefined ? coerceItem(def, value) : undefined;
    holder[def.name] = onePrimary(
      items.map((item) => {
        if (!hits.includes(item)) return item;
        if (sub !== undefined) return { ...item, [sub.name]: coerceValue(sub, value) };
        return op === 'replace' ? (replacement as Json) : { ...item, ...(replacement as Json) };
      }),
    );
  }

  matcher(def: AttrDef, filter: FilterNode): (item: Json) => boolean {
    try {
      return compileElementFilter(filter, def);
    } catch (error) {
      if (scimTypeOf(error) === 'invalidFilter') throw scimError('invalidPath', (error as Error).message, error);
      throw error;
    }
  }

  without(item: Json, name: string): Json {
    const copy = { ...item };
    delete copy[name];
    return copy;
  }
}

/**
 * Applies PATCH operations to a copy of a wire-format resource, all or nothing: any failing operation throws
 * and the caller's resource is untouched. The result still needs `normalizeResource` (types, required).
 */
export const applyPatch = (kind: ResourceKind, resource: Json, operations: readonly PatchOperation[]): Json => {
  const patcher = new Patcher(kind, structuredClone(resource));
  for (const operation of operations) patcher.apply(operation);
  return patcher.resource;
};
