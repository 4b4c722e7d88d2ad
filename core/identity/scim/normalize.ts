import { scimError } from './errors.ts';
import { type AttrDef, findAttr, type ResourceKind, schemasOf, subAttrsOf } from './schema.ts';

export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const maxStringLength = 2048;
const maxValues = 1000;

const invalid = (name: string, why: string): never => {
  throw scimError('invalidValue', `Attribute '${name}' ${why}`);
};

/** Coerces one simple value to the attribute's type. Entra sends booleans as "True"/"False"; that is accepted. */
const coerceSimple = (def: AttrDef, value: unknown): unknown => {
  switch (def.type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
      return invalid(def.name, 'must be a boolean');
    case 'integer':
    case 'decimal':
      if (typeof value === 'number' && Number.isFinite(value) && (def.type === 'decimal' || Number.isInteger(value))) return value;
      return invalid(def.name, `must be ${def.type === 'integer' ? 'an integer' : 'a number'}`);
    case 'dateTime':
      if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
      return invalid(def.name, 'must be an xsd:dateTime string');
    case 'string':
    case 'reference':
      if (typeof value !== 'string') return invalid(def.name, 'must be a string');
      if (value.length > maxStringLength) return invalid(def.name, `is longer than ${maxStringLength} characters`);
      return value;
    default:
      return invalid(def.name, 'has an unsupported type');
  }
};

/**
 * Coerces a complex value. A bare string given for a complex attribute with a `value` sub-attribute (Entra
 * sends the manager as a plain id) becomes `{ value }`. Unknown sub-attributes are an error in a single-valued
 * complex attribute (name, manager) but are dropped from the items of a multi-valued one (members, emails,
 * phoneNumbers, ...): RFC 7643 2.4 lets those items carry more than the listed sub-attributes, clients add
 * decorations (Entra sends `members` items with a `displayName`), and an item is identified by its value.
 */
const coerceComplex = (def: AttrDef, value: unknown, asItem = def.multiValued): Json => {
  if (typeof value === 'string' && findAttr(subAttrsOf(def), 'value') !== undefined) return { value };
  if (!isObject(value)) return invalid(def.name, 'must be an object');
  const out: Json = {};
  for (const [key, raw] of Object.entries(value)) {
    const sub = findAttr(subAttrsOf(def), key);
    if (sub === undefined) {
      if (asItem) continue;
      return invalid(`${def.name}.${key}`, 'is not a known sub-attribute');
    }
    if (raw === null || raw === undefined) continue;
    out[sub.name] = coerceSimple(sub, raw);
  }
  return out;
};

/** One item of a multi-valued complex attribute (a PATCH that replaces the items a value filter selects). */
export const coerceItem = (def: AttrDef, value: unknown): Json => coerceComplex(def, value, true);

/** RFC 7643 2.4: at most one `primary: true`; the last one set wins, as RFC 7644 3.5.2 asks of PATCH. */
export const onePrimary = (items: Json[]): Json[] => {
  const last = items.findLastIndex((item) => item['primary'] === true);
  return items.map((item, index) => (item['primary'] === true && index !== last ? { ...item, primary: false } : item));
};

/** Coerces a value of any attribute (simple, complex, multi-valued) to its canonical shape. */
export const coerceValue = (def: AttrDef, value: unknown): unknown => {
  if (def.multiValued) {
    const list = Array.isArray(value) ? value : [value];
    if (list.length > maxValues) return invalid(def.name, `has more than ${maxValues} values`);
    const items = list.filter((item) => item !== null && item !== undefined);
    return def.type === 'complex'
      ? onePrimary(items.map((item) => coerceComplex(def, item)))
      : items.map((item) => coerceSimple(def, item));
  }
  return def.type === 'complex' ? coerceComplex(def, value) : coerceSimple(def, value);
};

const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

/** Copies the writable attributes of one schema from `source`, coerced; readOnly ones (id, meta, groups) are dropped. */
const normalizeAttributes = (attributes: readonly AttrDef[], source: Json, schemaName: string): Json => {
  const out: Json = {};
  for (const [key, raw] of Object.entries(source)) {
    if (key === 'schemas' || key.toLowerCase().startsWith('urn:')) continue;
    const def = findAttr(attributes, key);
    if (def === undefined) return invalid(key, `is not an attribute of ${schemaName}`);
    if (def.mutability === 'readOnly' || def.mutability === 'writeOnly' || isEmpty(raw)) continue;
    const value = coerceValue(def, raw);
    if (!isEmpty(value)) out[def.name] = value;
  }
  return out;
};

/**
 * Validates a User or Group body (POST, PUT, or the result of a PATCH) into the stored shape: canonical
 * attribute names, coerced types, the enterprise extension under its URN. Objects under schema URNs this
 * server does not implement are ignored (RFC 7643 3: unsupported extensions); unknown core attributes and wrong
 * types fail with invalidValue; a missing required attribute fails with invalidValue.
 */
export const normalizeResource = (kind: ResourceKind, body: unknown): Json => {
  if (!isObject(body)) throw scimError('invalidSyntax', 'The request body must be a JSON object');
  const [core, ...extensions] = schemasOf[kind];
  if (core === undefined) throw new TypeError(`No schema for ${kind}`);
  const out = normalizeAttributes(core.attributes, body, core.name);
  for (const extension of extensions) {
    const key = Object.keys(body).find((candidate) => candidate.toLowerCase() === extension.urn.toLowerCase());
    const raw = key === undefined ? undefined : body[key];
    if (raw === undefined || raw === null) continue;
    if (!isObject(raw)) invalid(extension.urn, 'must be an object');
    const values = normalizeAttributes(extension.attributes, raw as Json, extension.name);
    if (Object.keys(values).length > 0) out[extension.urn] = values;
  }
  for (const def of core.attributes) {
    if (def.required && (typeof out[def.name] !== 'string' || (out[def.name] as string).trim() === '')) {
      invalid(def.name, 'is required');
    }
  }
  return out;
};
