import { z } from 'zod';
import type { Dialect, Queryable } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { valueSubAttr } from '../schema.ts';
import { foldFor, indexPath, unindexedPaths } from './attr-index.ts';
import { Bitset } from './bitset.ts';
import { resolveAttr, resolveSub } from './compile.ts';
import type { AttrPath, CompareOp, CompValue, FilterNode } from './parser.ts';

/**
 * SCIM User filters evaluated over the attribute index (attr-index.ts): each comparison is one covering index
 * scan returning uids, and `and`/`or`/`not` combine them as bitsets in JS, so even a filter that
 * matches every one of 100k users costs a few index scans rather than parsing 100k JSON resources. Semantics
 * are those of the in-process predicate (compile.ts), held by a differential test; the one documented
 * difference: `gt`/`lt` order strings by code point (SQLite's BINARY collation on UTF-8), not by UTF-16 code
 * unit, which disagree only between astral characters and U+E000..U+FFFF. PostgreSQL gets the same answers:
 * ordering compares under COLLATE "C" (code points, whatever the database's locale) and the string tests are
 * case-sensitive LIKE patterns on the already-folded column (never ILIKE: caseExact values must stay exact).
 */
export type IndexedFilter = (db: Queryable) => Promise<Bitset>;

/** Thrown inside the planner when a filter names an attribute the index does not hold; the caller falls back. */
class NotIndexed extends Error {}

type Cond = (dialect: Dialect) => { readonly text: string; readonly params: readonly (string | number)[] };
type Leaf = { readonly key: string; readonly def: AttrDef };

const cond =
  (text: string, ...params: (string | number)[]): Cond =>
  () => ({ text, params });
const orderOps: Partial<Record<CompareOp, string>> = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' };

/** A LIKE pattern matching `literal` literally (backslash is the ESCAPE character). */
const likeLiteral = (literal: string): string => literal.replace(/[\\%_]/g, (char) => `\\${char}`);
const likePatterns: Partial<Record<CompareOp, (literal: string) => string>> = {
  sw: (literal) => `${likeLiteral(literal)}%`,
  ew: (literal) => `%${likeLiteral(literal)}`,
  co: (literal) => `%${likeLiteral(literal)}%`,
};

/** String tests with the semantics of compile.ts `stringTest` (the literal is already folded). */
const stringCond = (op: CompareOp, literal: string): Cond => {
  const ordered = orderOps[op];
  if (op === 'eq') return cond(`kind = 's' AND str = ?`, literal);
  if (ordered !== undefined) {
    return (dialect) => ({ text: `kind = 's' AND str${dialect === 'postgres' ? ' COLLATE "C"' : ''} ${ordered} ?`, params: [literal] });
  }
  if (literal === '') return cond(`kind = 's'`);
  const pattern = likePatterns[op]?.(literal) ?? '';
  return (dialect) => {
    // PostgreSQL's LIKE is case-sensitive: the column holds exactly what compile.ts compares.
    if (dialect === 'postgres') return { text: `kind = 's' AND str LIKE ? ESCAPE '\\'`, params: [pattern] };
    // SQLite's LIKE folds ASCII case, so it keeps the byte-exact forms. UTF-8 never contains the byte 0xFF, so
    // [p, p || 0xFF) holds exactly the strings that start with p.
    if (op === 'sw') return { text: `kind = 's' AND str >= ? AND str < (? || x'ff')`, params: [literal, literal] };
    if (op === 'ew') return { text: `kind = 's' AND substr(str, -?) = ?`, params: [[...literal].length, literal] };
    return { text: `kind = 's' AND instr(str, ?) > 0`, params: [literal] };
  };
};

/** Value tests with the semantics of compile.ts `valueTest` (the filter was already validated by it). */
const compareCond = (def: AttrDef, op: CompareOp, literal: Exclude<CompValue, null>): Cond => {
  switch (def.type) {
    case 'boolean':
      return cond(`kind = 'b' AND str = ?`, String(typeof literal === 'string' ? literal.toLowerCase() === 'true' : literal));
    case 'integer':
    case 'decimal':
      return cond(`kind = 'n' AND num ${orderOps[op] ?? '='} ?`, literal as number);
    case 'dateTime':
      if (op === 'co' || op === 'sw' || op === 'ew') return stringCond(op, literal as string);
      return cond(`kind = 's' AND num ${orderOps[op] ?? '='} ?`, Date.parse(literal as string));
    default:
      return stringCond(op, foldFor(def, literal as string));
  }
};

/** `pr`: a non-empty string, any number or boolean, or a complex value with at least one sub-attribute. */
const presentCond = (def: AttrDef): Cond =>
  def.type === 'complex' ? cond(`kind = 'e' AND num > 0`) : cond(`kind IN ('s', 'n', 'b') AND str IS DISTINCT FROM ''`);

const checked = (key: string): string => {
  if (unindexedPaths.has(key)) throw new NotIndexed(key);
  return key;
};

/** A root-scope path: `attr`, `attr.sub`, or a multi-valued complex attribute meaning its `value`. */
const rootLeaf = (path: AttrPath): Leaf => {
  const { def, extensionUrn } = resolveAttr('User', path, 'invalidFilter');
  checked(indexPath(extensionUrn, def));
  const sub =
    path.sub !== undefined
      ? resolveSub(def, path.sub, 'invalidFilter')
      : def.multiValued && def.type === 'complex'
        ? valueSubAttr(def)
        : undefined;
  return { key: checked(indexPath(extensionUrn, def, sub)), def: sub ?? def };
};

// Elements of a multi-valued attribute are (uid, elem) pairs packed into one number; SCIM values are capped
// far below this many elements per attribute (normalize.ts maxValues).
const elemSpan = 4096;

type SetOps<S> = {
  readonly universe: () => S;
  readonly leaf: (leaf: Leaf, test: Cond) => S;
  readonly and: (a: S, b: S) => S;
  readonly or: (a: S, b: S) => S;
  readonly minus: (a: S, b: S) => S;
};

const maxUidRow = z.object({ n: z.number() });
const maxUid = async (db: Queryable): Promise<number> =>
  (await db.one(maxUidRow, 'SELECT COALESCE(MAX(uid), 0) AS n FROM scim_users'))?.n ?? 0;

const listRow = z.object({ list: z.string() });

/**
 * The numbers one query selects, aggregated by the database into one JSON array, which V8 parses natively:
 * about three times cheaper than stepping 100k result rows through the driver.
 */
const numbers = async (db: Queryable, expression: string, from: string, params: readonly (string | number)[]): Promise<number[]> => {
  const aggregate = db.dialect === 'postgres' ? `COALESCE(json_agg(${expression}), '[]')::text` : `json_group_array(${expression})`;
  const row = await db.one(listRow, `SELECT ${aggregate} AS list FROM ${from}`, params);
  return JSON.parse(row?.list ?? '[]') as number[];
};

const leafFrom = (leaf: Leaf, test: Cond, dialect: Dialect): { from: string; params: (string | number)[] } => {
  const { text, params } = test(dialect);
  return { from: `scim_user_attrs WHERE path = ? AND ${text}`, params: [leaf.key, ...params] };
};

type RootSet = (db: Queryable, size: number) => Promise<Bitset>;
const rootOps: SetOps<RootSet> = {
  universe: () => async (db, size) => Bitset.of(size, await numbers(db, 'uid', 'scim_users', [])),
  leaf: (leaf, test) => async (db, size) => {
    const { from, params } = leafFrom(leaf, test, db.dialect);
    return Bitset.of(size, await numbers(db, 'uid', from, params));
  },
  and: (a, b) => async (db, size) => (await a(db, size)).and(await b(db, size)),
  or: (a, b) => async (db, size) => (await a(db, size)).or(await b(db, size)),
  minus: (a, b) => async (db, size) => (await a(db, size)).andNot(await b(db, size)),
};

/** Sorted, duplicate-free packed (uid, elem) numbers: set operations are linear merges. */
type Sorted = Float64Array;
const sortedOf = (values: readonly number[]): Sorted => {
  const sorted = Float64Array.from(values).sort();
  return sorted.filter((value, index) => index === 0 || value !== sorted[index - 1]);
};

/** Merges two sorted sets, keeping what `keep(inLeft, inRight)` says. */
const merge = (left: Sorted, right: Sorted, keep: (inLeft: boolean, inRight: boolean) => boolean): Sorted => {
  const out = new Float64Array(left.length + right.length);
  let size = 0;
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const a = i < left.length ? (left[i] as number) : Number.POSITIVE_INFINITY;
    const b = j < right.length ? (right[j] as number) : Number.POSITIVE_INFINITY;
    const value = Math.min(a, b);
    if (keep(a === value, b === value)) {
      out[size] = value;
      size += 1;
    }
    if (a === value) i += 1;
    if (b === value) j += 1;
  }
  return out.subarray(0, size);
};

type ElementSet = (db: Queryable) => Promise<Sorted>;
const elementOps = (base: string): SetOps<ElementSet> => {
  const packed = `uid * ${elemSpan} + elem`;
  return {
    universe: () => async (db) => sortedOf(await numbers(db, packed, `scim_user_attrs WHERE path = ? AND kind = 'e'`, [base])),
    leaf: (leaf, test) => async (db) => {
      const { from, params } = leafFrom(leaf, test, db.dialect);
      return sortedOf(await numbers(db, packed, from, params));
    },
    and: (a, b) => async (db) => merge(await a(db), await b(db), (left, right) => left && right),
    or: (a, b) => async (db) => merge(await a(db), await b(db), (left, right) => left || right),
    minus: (a, b) => async (db) => merge(await a(db), await b(db), (left, right) => left && !right),
  };
};

/** Plans one scope: `leafOf` resolves a path, `ops` builds the sets; a value filter nests an element scope. */
const plan = <S>(
  node: FilterNode,
  ops: SetOps<S>,
  leafOf: (path: AttrPath) => Leaf,
  nested: (node: FilterNode & { kind: 'valuePath' }) => S,
): S => {
  const recurse = (child: FilterNode): S => plan(child, ops, leafOf, nested);
  switch (node.kind) {
    case 'and':
      return ops.and(recurse(node.left), recurse(node.right));
    case 'or':
      return ops.or(recurse(node.left), recurse(node.right));
    case 'not':
      return ops.minus(ops.universe(), recurse(node.filter));
    case 'present': {
      const leaf = leafOf(node.path);
      return ops.leaf(leaf, presentCond(leaf.def));
    }
    case 'compare': {
      const leaf = leafOf(node.path);
      if (node.value === null) {
        const present = ops.leaf(leaf, presentCond(leaf.def));
        return node.op === 'ne' ? present : ops.minus(ops.universe(), present);
      }
      if (node.op === 'ne') return ops.minus(ops.universe(), ops.leaf(leaf, compareCond(leaf.def, 'eq', node.value)));
      return ops.leaf(leaf, compareCond(leaf.def, node.op, node.value));
    }
    case 'valuePath':
      return nested(node);
    default:
      throw new TypeError('Unhandled filter node');
  }
};

const valuePathSet = (node: FilterNode & { kind: 'valuePath' }): RootSet => {
  const { def, extensionUrn } = resolveAttr('User', node.path, 'invalidFilter');
  const base = checked(indexPath(extensionUrn, def));
  const elementLeaf = (path: AttrPath): Leaf => {
    const sub = resolveSub(def, path.attr, 'invalidFilter');
    return { key: checked(`${base}.${sub.name}`), def: sub };
  };
  const elements = plan(node.filter, elementOps(base), elementLeaf, () => {
    throw new TypeError('Value filters cannot be nested (compile.ts refuses them)');
  });
  return async (db, size) =>
    Bitset.of(
      size,
      Array.from(await elements(db), (packed) => Math.floor(packed / elemSpan)),
    );
};

/**
 * Plans a User filter (already validated by compile.ts) over the attribute index, or returns undefined when it
 * names an attribute the index does not hold (then the caller evaluates it in JS over the resources).
 */
export const planIndexedFilter = (node: FilterNode): IndexedFilter | undefined => {
  try {
    const evaluate = plan(node, rootOps, rootLeaf, valuePathSet);
    return async (db) => evaluate(db, await maxUid(db));
  } catch (error) {
    if (error instanceof NotIndexed) return undefined;
    throw error;
  }
};
