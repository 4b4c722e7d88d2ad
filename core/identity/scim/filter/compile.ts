import { scimError, type ScimType } from '../errors.ts';
import { type AttrDef, findAttr, type ResourceKind, schemasOf, subAttrsOf, valueSubAttr } from '../schema.ts';
import type { AttrPath, CompareOp, CompValue, FilterNode } from './parser.ts';

export type Resource = Record<string, unknown>;
export type Predicate = (resource: Resource) => boolean;

/** Where an attribute lives: top level (core schema) or inside an extension object keyed by its URN. */
export type ResolvedAttr = { readonly def: AttrDef; readonly extensionUrn: string | undefined };

/** Finds an attribute of a resource type by path, case-insensitively; unknown names fail with `errorType`. */
export const resolveAttr = (kind: ResourceKind, path: AttrPath, errorType: ScimType): ResolvedAttr => {
  const [core, ...extensions] = schemasOf[kind];
  const schema = path.urn === undefined ? core : schemasOf[kind].find((candidate) => candidate.urn === path.urn);
  const def = schema === undefined ? undefined : findAttr(schema.attributes, path.attr);
  if (schema === undefined || def === undefined) {
    throw scimError(errorType, `Unknown attribute '${path.attr}' for resource type ${kind}`);
  }
  return { def, extensionUrn: extensions.includes(schema) ? schema.urn : undefined };
};

export const resolveSub = (parent: AttrDef, name: string, errorType: ScimType): AttrDef => {
  const sub = findAttr(subAttrsOf(parent), name);
  if (sub === undefined) throw scimError(errorType, `Unknown sub-attribute '${name}' of '${parent.name}'`);
  return sub;
};

const asList = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isObject = (value: unknown): value is Resource => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The container that holds an attribute: the resource itself or its extension object. */
export const containerOf = (resource: Resource, extensionUrn: string | undefined): Resource | undefined => {
  if (extensionUrn === undefined) return resource;
  const extension = resource[extensionUrn];
  return isObject(extension) ? extension : undefined;
};

type Accessor = { readonly def: AttrDef; readonly get: (target: Resource) => unknown[] };

/** How to read the candidate values of a path, in the root scope or inside a value filter's element scope. */
type Scope = { readonly kind: ResourceKind } | { readonly element: AttrDef };

/** `whole` reads a complex attribute's elements rather than their `value` sub-attribute (for value filters). */
const accessorFor = (scope: Scope, path: AttrPath, whole = false): Accessor => {
  if ('element' in scope) {
    if (path.urn !== undefined || path.sub !== undefined) {
      throw scimError('invalidFilter', `Nested path '${path.attr}' is not allowed inside a value filter`);
    }
    const def = resolveSub(scope.element, path.attr, 'invalidFilter');
    return { def, get: (element) => asList(element[def.name]) };
  }
  const { def, extensionUrn } = resolveAttr(scope.kind, path, 'invalidFilter');
  const own = (resource: Resource): unknown[] => asList(containerOf(resource, extensionUrn)?.[def.name]);
  const sub =
    path.sub === undefined
      ? def.multiValued && def.type === 'complex' && !whole
        ? valueSubAttr(def)
        : undefined
      : resolveSub(def, path.sub, 'invalidFilter');
  if (sub === undefined) return { def, get: own };
  return {
    def: sub,
    get: (resource) => own(resource).flatMap((item) => (isObject(item) ? asList(item[sub.name]) : [])),
  };
};

const isPresent = (value: unknown): boolean =>
  !(
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (isObject(value) && Object.keys(value).length === 0)
  );

const ordered = (op: CompareOp, sign: number): boolean => {
  switch (op) {
    case 'eq':
      return sign === 0;
    case 'gt':
      return sign > 0;
    case 'ge':
      return sign >= 0;
    case 'lt':
      return sign < 0;
    case 'le':
      return sign <= 0;
    default:
      return false;
  }
};

/** A test of one stored value against the literal, honouring the attribute's type and caseExact rule. */
const valueTest = (def: AttrDef, op: CompareOp, literal: Exclude<CompValue, null>): ((value: unknown) => boolean) => {
  const bad = (why: string): never => {
    throw scimError('invalidFilter', `Attribute '${def.name}' ${why}`);
  };
  switch (def.type) {
    case 'complex':
      return bad('is complex; compare one of its sub-attributes');
    case 'boolean': {
      const wanted = typeof literal === 'string' && /^(true|false)$/i.test(literal) ? literal.toLowerCase() === 'true' : literal;
      if (typeof wanted !== 'boolean') return bad('is boolean; compare it with true or false');
      if (op !== 'eq') return bad(`is boolean; operator '${op}' is not allowed`);
      return (value) => value === wanted;
    }
    case 'integer':
    case 'decimal': {
      if (typeof literal !== 'number') return bad('is numeric; compare it with a number');
      if (op === 'co' || op === 'sw' || op === 'ew') return bad(`is numeric; operator '${op}' is not allowed`);
      return (value) => typeof value === 'number' && ordered(op, Math.sign(value - literal));
    }
    case 'dateTime': {
      if (typeof literal !== 'string') return bad('is a dateTime; compare it with a string');
      if (op === 'co' || op === 'sw' || op === 'ew') return stringTest(true, op, literal);
      const wanted = Date.parse(literal);
      if (Number.isNaN(wanted)) return bad(`is a dateTime; '${literal.slice(0, 50)}' is not a date`);
      return (value) => typeof value === 'string' && ordered(op, Math.sign(Date.parse(value) - wanted));
    }
    case 'string':
    case 'reference':
      if (typeof literal !== 'string') return bad('is a string; compare it with a quoted string');
      return stringTest(def.caseExact, op, literal);
    default:
      return bad('has an unsupported type');
  }
};

const stringTest = (caseExact: boolean, op: CompareOp, literal: string): ((value: unknown) => boolean) => {
  const fold = (text: string): string => (caseExact ? text : text.toLowerCase());
  const wanted = fold(literal);
  return (value) => {
    if (typeof value !== 'string') return false;
    const have = fold(value);
    if (op === 'co') return have.includes(wanted);
    if (op === 'sw') return have.startsWith(wanted);
    if (op === 'ew') return have.endsWith(wanted);
    return ordered(op, have < wanted ? -1 : have > wanted ? 1 : 0);
  };
};

const compileNode = (node: FilterNode, scope: Scope): Predicate => {
  switch (node.kind) {
    case 'and': {
      const left = compileNode(node.left, scope);
      const right = compileNode(node.right, scope);
      return (resource) => left(resource) && right(resource);
    }
    case 'or': {
      const left = compileNode(node.left, scope);
      const right = compileNode(node.right, scope);
      return (resource) => left(resource) || right(resource);
    }
    case 'not': {
      const inner = compileNode(node.filter, scope);
      return (resource) => !inner(resource);
    }
    case 'present': {
      const { get } = accessorFor(scope, node.path);
      return (resource) => get(resource).some(isPresent);
    }
    case 'compare': {
      const { def, get } = accessorFor(scope, node.path);
      if (node.value === null) {
        if (node.op !== 'eq' && node.op !== 'ne') throw scimError('invalidFilter', `null only works with eq and ne`);
        const wantPresent = node.op === 'ne';
        return (resource) => get(resource).some(isPresent) === wantPresent;
      }
      if (node.op === 'ne') {
        const equal = valueTest(def, 'eq', node.value);
        return (resource) => !get(resource).some(equal);
      }
      const test = valueTest(def, node.op, node.value);
      return (resource) => get(resource).some(test);
    }
    case 'valuePath': {
      if ('element' in scope) throw scimError('invalidFilter', 'Value filters cannot be nested');
      const { def, get } = accessorFor(scope, node.path, true);
      if (def.type !== 'complex') throw scimError('invalidFilter', `'${def.name}' is not complex; it has no value filter`);
      const inner = compileNode(node.filter, { element: def });
      return (resource) => get(resource).some((item) => isObject(item) && inner(item));
    }
    default:
      throw new TypeError('Unhandled filter node');
  }
};

/** Compiles a parsed filter against a resource type into a predicate over wire-format resources. */
export const compileFilter = (node: FilterNode, kind: ResourceKind): Predicate => compileNode(node, { kind });

/** Compiles a value filter (`members[value eq "x"]`) into a predicate over the elements of `def`. */
export const compileElementFilter = (node: FilterNode, def: AttrDef): Predicate => compileNode(node, { element: def });
