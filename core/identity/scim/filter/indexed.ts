import { z } from 'zod';
import type { Queryable } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { valueSubAttr } from '../schema.ts';
import { indexPath, unindexedPaths } from './attr-index.ts';
import { Bitset } from './bitset.ts';
import { resolveAttr, resolveSub } from './compile.ts';
import { hasElementRows } from './element-rows.ts';
import { scanElements } from './element-scan.ts';
import { ElementSet, elementSql } from './element-set.ts';
import { type Cond, compareCond, type LeafTest, presentCond } from './leaf-sql.ts';
import type { AttrPath, FilterNode } from './parser.ts';
import type { UserWindow } from './row-scan.ts';
import { scanSingles } from './single-rows.ts';
import { jsonList, listRow, uidIn } from './sql-lists.ts';

/**
 * SCIM User filters evaluated over the attribute index (attr-index.ts): each comparison is one covering index
 * scan returning uids, and `and`/`or`/`not` combine them as bitsets in JS (value filters as element sets,
 * element-set.ts), so even a filter that matches every one of 100k users costs a few index scans rather than
 * parsing 100k JSON resources. An `and` probes both sides (each leaf read with a LIMIT: a broad one stops early,
 * a selective one is thereby answered), evaluates a selective side first and the other side on just its users
 * (primary-key look-ups instead of a scan of its path); two broad sides run at once (PostgreSQL: two connections).
 * A broad value filter on a multi-valued attribute is instead one scan of its element rows (element-scan.ts), and
 * a broad condition on single-valued attributes one scan of the users' single-valued rows (single-rows.ts).
 *
 * Semantics are those of the in-process predicate (compile.ts), held by a differential test; the one documented
 * difference: `gt`/`lt` order strings by code point (SQLite's BINARY collation on UTF-8), not by UTF-16 code
 * unit, which disagree only between astral characters and U+E000..U+FFFF. PostgreSQL gets the same answers:
 * ordering compares under COLLATE "C" (code points, whatever the database's locale) and the string tests are
 * case-sensitive LIKE patterns on the already-folded column (never ILIKE: caseExact values must stay exact).
 */
/** `skip` and `take`: the window of matching uids (ascending) the caller shows; `total` counts every match. */
export type IndexedFilter = (db: Queryable, skip: number, take: number) => Promise<UserWindow>;

export type PlanTuning = {
  /** An `and` whose first side selects at most this many users evaluates the other side on them alone. */
  readonly narrowTo: number;
};
export const defaultTuning: PlanTuning = { narrowTo: 1000 };

/** Thrown inside the planner when a filter names an attribute the index does not hold; the caller falls back. */
class NotIndexed extends Error {}

type Leaf = { readonly key: string; readonly def: AttrDef };
/**
 * `maxUid`: the largest uid when the evaluation started (sets span 0..maxUid); read while the root's estimate is
 * probed (planIndexedFilter), before anything builds a set.
 */
type Ctx = { readonly db: Queryable; maxUid: number; readonly tuning: PlanTuning };
/** Sorted uids the caller intersects the result with anyway; undefined: every user. */
type Within = readonly number[] | undefined;

/**
 * One node of a plan. `estimate` says how many users (or elements) it selects: the exact count up to `narrowTo`,
 * else `large` (more than that, or not worth finding out).
 */
type Plan<S> = {
  readonly estimate: (ctx: Ctx) => Promise<number>;
  readonly run: (ctx: Ctx, within: Within) => Promise<S>;
  /** A `not` node's operand: `x and not y` subtracts it from x instead of reading every user. */
  readonly negated?: Plan<S>;
  /** As the whole filter: its count and a window of users straight from SQL, or undefined to run it. */
  readonly window?: (ctx: Ctx, skip: number, take: number) => Promise<UserWindow | undefined>;
  /** A leaf's number of matches, counted on its index range (root scope: one row per user and single-valued path). */
  readonly count?: (ctx: Ctx) => Promise<number>;
};
const large = (ctx: Ctx): number => ctx.tuning.narrowTo + 1;
/**
 * A window of users read straight from SQL must end within the first this many matches: reading 10k element rows
 * in key order costs about what building the set does at 30k (SQLite, 100k users: the page at startIndex 90,000
 * took 60 ms in SQL against 36 ms through the set).
 */
const windowUpTo = 10_000;

/** How a scope builds its sets: root scope sets of users, value filter scope sets of elements. */
type Scope<S> = {
  readonly universe: (ctx: Ctx, within: Within) => Promise<S>;
  /** What a leaf's rows contribute: the uid (root scope) or the (uid, elem) of an element (`elementSql`). */
  readonly expression: string;
  readonly of: (ctx: Ctx, numbers: readonly number[]) => S;
  readonly users: (set: S) => Bitset;
  /** Root scope: another way of answering a planned node (single-rows.ts). */
  readonly rows?: (node: FilterNode, planned: Plan<S>) => Plan<S>;
};
type SetLike<S> = { and(other: S): S; or(other: S): S; andNot(other: S): S };

const countRow = z.object({ n: z.number() });

/**
 * The numbers one query over the index rows of `path` selects, aggregated by the database into one JSON array,
 * which V8 parses natively: about three times cheaper than stepping 100k result rows through the driver. With
 * `within`, only those users' rows are read, by primary key (SQLite: `+path` keeps the planner off the value
 * index, which would scan every row of the path). With `limit`, at most that many (an early-stopping probe).
 */
const numbers = async (
  db: Queryable,
  expression: string,
  path: string,
  test: Pick<LeafTest, 'text' | 'params'>,
  within: Within,
  limit?: number,
) => {
  const restrict = within === undefined ? undefined : uidIn(db.dialect, within);
  const pathTest = restrict === undefined || db.dialect === 'postgres' ? 'path = ?' : '+path = ?';
  const rows = `FROM scim_user_attrs WHERE ${restrict === undefined ? '' : `${restrict.text} AND `}${pathTest} AND ${test.text}`;
  const sql =
    limit === undefined
      ? `SELECT ${jsonList(db.dialect, expression)} AS list ${rows}`
      : `SELECT ${jsonList(db.dialect, 'x')} AS list FROM (SELECT ${expression} AS x ${rows} LIMIT ${limit}) AS probe`;
  const row = await db.one(listRow, sql, [...(restrict?.params ?? []), path, ...test.params]);
  return JSON.parse(row?.list ?? '[]') as number[];
};

/**
 * A leaf's probe: the numbers it selects read with LIMIT narrowTo + 1, so a broad leaf stops after that many
 * rows (it is `large`) and a selective one has its whole answer (kept for its run, not read twice). Scans (co,
 * ew, pr) are probed too: a broad one stops early, and a selective one reads its path once, as its run would.
 */
type Probe = { readonly size: number; readonly found: readonly number[] | undefined };
const probeLeaf = async (ctx: Ctx, expression: string, leaf: Leaf, test: LeafTest): Promise<Probe> => {
  const found = await numbers(ctx.db, expression, leaf.key, test, undefined, ctx.tuning.narrowTo + 1);
  return found.length > ctx.tuning.narrowTo ? { size: large(ctx), found: undefined } : { size: found.length, found };
};

const spanRow = z.object({ lo: z.number(), count: z.number() });

/**
 * Every user (up to maxUid). Uids are distinct integers, so when there are maxUid - lo + 1 of them they are all
 * of [lo, maxUid]: a count instead of reading 100k uids, unless users were deleted.
 */
const everyUser = async ({ db, maxUid }: Ctx): Promise<Bitset> => {
  const span = await db.one(spanRow, 'SELECT COALESCE(MIN(uid), 1) AS lo, COUNT(*) AS count FROM scim_users WHERE uid <= ?', [maxUid]);
  if (span !== undefined && span.count === maxUid - span.lo + 1) return Bitset.range(maxUid, span.lo);
  const list = (await db.one(listRow, `SELECT ${jsonList(db.dialect, 'uid')} AS list FROM scim_users`))?.list ?? '[]';
  return Bitset.of(maxUid, JSON.parse(list) as number[]);
};

/**
 * A root-scope node over single-valued attributes only, answered from their rows (single-rows.ts) when it is
 * broad (its index plan's estimate) or given users: one scan (or look-up) with the whole condition instead of a
 * scan and an aggregate per leaf. As the whole filter it is counted and paged in SQL; a lone leaf is counted on
 * its index range (10k entries for `title eq "Engineer"` against a scan of every user's row) and only paged on
 * the rows, and otherwise keeps its index plan, which reads only its matches. Selective nodes keep the index plan.
 */
const singlesPlan = (node: FilterNode, planned: Plan<Bitset>): Plan<Bitset> => {
  const scan = scanSingles(node);
  if (scan === undefined) return planned;
  const broad = async (ctx: Ctx): Promise<boolean> => (await planned.estimate(ctx)) === large(ctx);
  return {
    ...planned,
    run: async (ctx, within) =>
      planned.count === undefined && (within !== undefined || (await broad(ctx)))
        ? Bitset.of(ctx.maxUid, await scan.users(ctx.db, within))
        : planned.run(ctx, within),
    // The page reads the rows before the window, so a deep page builds the set instead.
    window: async (ctx, skip, take) =>
      skip + take <= windowUpTo && (await broad(ctx)) ? scan.window(ctx.db, skip, take, planned.count?.(ctx)) : undefined,
  };
};

const rootScope: Scope<Bitset> = {
  // `within` holds users found in the index, so they exist.
  universe: async (ctx, within) => (within === undefined ? everyUser(ctx) : Bitset.of(ctx.maxUid, within)),
  expression: 'uid',
  of: ({ maxUid }, uids) => Bitset.of(maxUid, uids),
  users: (set) => set,
  rows: singlesPlan,
};

const elementScope = (base: string): Scope<ElementSet> => ({
  universe: async ({ db, maxUid }, within) =>
    ElementSet.of(maxUid, await numbers(db, elementSql, base, { text: `kind = 'e'`, params: [] }, within)),
  expression: elementSql,
  of: ({ maxUid }, elements) => ElementSet.of(maxUid, elements),
  users: (set) => set.users(),
});

/** Memoises a node's estimate per evaluation (an `and` asks its children, and its parent asks it). */
const estimateOnce = (estimate: (ctx: Ctx) => Promise<number>): ((ctx: Ctx) => Promise<number>) => {
  const seen = new WeakMap<Ctx, Promise<number>>();
  return (ctx) => {
    let known = seen.get(ctx);
    if (known === undefined) {
      known = estimate(ctx);
      seen.set(ctx, known);
    }
    return known;
  };
};

const andPlan = <S extends SetLike<S>>(scope: Scope<S>, a: Plan<S>, b: Plan<S>): Plan<S> => ({
  // Both probes at once (PostgreSQL: two connections, one round trip of waiting instead of two).
  estimate: estimateOnce(async (ctx) => Math.min(...(await Promise.all([a.estimate(ctx), b.estimate(ctx)])))),
  run: async (ctx, within) => {
    if (within !== undefined) return (await a.run(ctx, within)).and(await b.run(ctx, within));
    const [sizeA, sizeB] = await Promise.all([a.estimate(ctx), b.estimate(ctx)]);
    // Both known to be large: neither can narrow the other, so both run at once (PostgreSQL: two connections).
    if (Math.min(sizeA, sizeB) === large(ctx)) return both(ctx, a, b, within, (x, y) => x.and(y));
    const [first, second] = sizeB < sizeA ? [b, a] : [a, b];
    const left = await first.run(ctx, within);
    const users = scope.users(left);
    const count = users.count();
    if (count === 0) return left;
    return left.and(await second.run(ctx, count <= ctx.tuning.narrowTo ? users.slice(0, count) : within));
  },
});

/**
 * `a and not b`: a less what b selects, so the `not` never reads every user (`not (title eq "x") and active eq
 * true` read 100k uids three times). A selective a narrows b to its users, as in `and`.
 */
const andNotPlan = <S extends SetLike<S>>(scope: Scope<S>, a: Plan<S>, b: Plan<S>): Plan<S> => ({
  estimate: a.estimate,
  run: async (ctx, within) => {
    if (within !== undefined || (await a.estimate(ctx)) === large(ctx)) return both(ctx, a, b, within, (x, y) => x.andNot(y));
    const left = await a.run(ctx, within);
    const users = scope.users(left);
    const count = users.count();
    return count === 0 ? left : left.andNot(await b.run(ctx, users.slice(0, count)));
  },
});

/** Runs two independent nodes at once: PostgreSQL answers on two pooled connections (SQLite: one after the other). */
const both = async <S>(ctx: Ctx, a: Plan<S>, b: Plan<S>, within: Within, combine: (x: S, y: S) => S): Promise<S> => {
  const [x, y] = await Promise.all([a.run(ctx, within), b.run(ctx, within)]);
  return combine(x, y);
};

/** A leaf: probed once per evaluation when an `and` asks its size; a complete probe is its answer. */
const leafPlan = <S>(scope: Scope<S>, leaf: Leaf, test: Cond): Plan<S> => {
  const probes = new WeakMap<Ctx, Promise<Probe>>();
  return {
    estimate: async (ctx) => {
      let probe = probes.get(ctx);
      if (probe === undefined) {
        probe = probeLeaf(ctx, scope.expression, leaf, test(ctx.db.dialect));
        probes.set(ctx, probe);
      }
      return (await probe).size;
    },
    run: async (ctx, within) => {
      // A probe's answer holds every match; a superset of `within` is fine, since the caller intersects.
      const found = (await probes.get(ctx))?.found;
      return scope.of(ctx, found ?? (await numbers(ctx.db, scope.expression, leaf.key, test(ctx.db.dialect), within)));
    },
    count: async ({ db }) => {
      const { text, params } = test(db.dialect);
      return (
        (await db.one(countRow, `SELECT COUNT(*) AS n FROM scim_user_attrs WHERE path = ? AND ${text}`, [leaf.key, ...params]))?.n ?? 0
      );
    },
  };
};

/** Everything (in `within`) but what `inner` selects. */
const notPlan = <S extends SetLike<S>>(scope: Scope<S>, inner: Plan<S>): Plan<S> => ({
  negated: inner,
  estimate: async (ctx) => large(ctx),
  run: async (ctx, within) => {
    const [all, excluded] = await Promise.all([scope.universe(ctx, within), inner.run(ctx, within)]);
    return all.andNot(excluded);
  },
});

/** Plans one scope: `leafOf` resolves a path; a value filter nests an element scope. */
const plan = <S extends SetLike<S>>(
  node: FilterNode,
  scope: Scope<S>,
  leafOf: (path: AttrPath) => Leaf,
  nested: (node: FilterNode & { kind: 'valuePath' }) => Plan<S>,
): Plan<S> => {
  const planned = planNode(node, scope, leafOf, nested);
  return scope.rows?.(node, planned) ?? planned;
};

const planNode = <S extends SetLike<S>>(
  node: FilterNode,
  scope: Scope<S>,
  leafOf: (path: AttrPath) => Leaf,
  nested: (node: FilterNode & { kind: 'valuePath' }) => Plan<S>,
): Plan<S> => {
  const recurse = (child: FilterNode): Plan<S> => plan(child, scope, leafOf, nested);
  switch (node.kind) {
    case 'and': {
      const [left, right] = [recurse(node.left), recurse(node.right)];
      if (right.negated !== undefined && left.negated === undefined) return andNotPlan(scope, left, right.negated);
      if (left.negated !== undefined && right.negated === undefined) return andNotPlan(scope, right, left.negated);
      return andPlan(scope, left, right);
    }
    case 'or': {
      const [a, b] = [recurse(node.left), recurse(node.right)];
      return {
        estimate: async (ctx) => {
          const [sizeA, sizeB] = await Promise.all([a.estimate(ctx), b.estimate(ctx)]);
          return Math.min(large(ctx), sizeA + sizeB);
        },
        run: (ctx, within) => both(ctx, a, b, within, (x, y) => x.or(y)),
      };
    }
    case 'not':
      return notPlan(scope, recurse(node.filter));
    case 'present': {
      const leaf = leafOf(node.path);
      return leafPlan(scope, leaf, presentCond(leaf.def));
    }
    case 'compare': {
      const leaf = leafOf(node.path);
      if (node.value === null) {
        const present = leafPlan(scope, leaf, presentCond(leaf.def));
        return node.op === 'ne' ? present : notPlan(scope, present);
      }
      if (node.op === 'ne') return notPlan(scope, leafPlan(scope, leaf, compareCond(leaf.def, 'eq', node.value)));
      return leafPlan(scope, leaf, compareCond(leaf.def, node.op, node.value));
    }
    case 'valuePath':
      return nested(node);
    default:
      throw new TypeError('Unhandled filter node');
  }
};

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

/** A value filter: its condition on the elements of one attribute, as the set of users holding such an element. */
const valuePathPlan = (node: FilterNode & { kind: 'valuePath' }): Plan<Bitset> => {
  const { def, extensionUrn } = resolveAttr('User', node.path, 'invalidFilter');
  const base = checked(indexPath(extensionUrn, def));
  const elementLeaf = (path: AttrPath): Leaf => {
    const sub = resolveSub(def, path.attr, 'invalidFilter');
    return { key: checked(`${base}.${sub.name}`), def: sub };
  };
  const elements = plan(node.filter, elementScope(base), elementLeaf, () => {
    throw new TypeError('Value filters cannot be nested (compile.ts refuses them)');
  });
  const scan = hasElementRows(extensionUrn, def) ? scanElements(base, def, node.filter) : undefined;
  const broad = async (ctx: Ctx): Promise<boolean> => (await elements.estimate(ctx)) === large(ctx);
  return {
    estimate: elements.estimate,
    // Many matching elements, or given users: one query with the whole condition (element-scan.ts). Selective
    // conditions keep the index plan, whose leaves are index ranges and narrow each other.
    run: async (ctx, within) =>
      scan !== undefined && (within !== undefined || (await broad(ctx)))
        ? Bitset.of(ctx.maxUid, await scan.users(ctx.db, within))
        : (await elements.run(ctx, within)).users(),
    // The whole filter and broad: COUNT and one page in SQL instead of sending up to 100k uids to build a set.
    // The page query reads the rows before the window, so a deep page builds the set instead.
    window: async (ctx, skip, take) =>
      scan !== undefined && skip + take <= windowUpTo && (await broad(ctx)) ? scan.window(ctx.db, skip, take) : undefined,
  };
};

const maxUidOf = async (db: Queryable): Promise<number> =>
  (await db.one(countRow, 'SELECT COALESCE(MAX(uid), 0) AS n FROM scim_users'))?.n ?? 0;

/**
 * Plans a User filter (already validated by compile.ts) over the attribute index, or returns undefined when it
 * names an attribute the index does not hold (then the caller evaluates it in JS over the resources).
 */
export const planIndexedFilter = (node: FilterNode, tuning: PlanTuning = defaultTuning): IndexedFilter | undefined => {
  try {
    const evaluate = plan(node, rootScope, rootLeaf, valuePathPlan);
    return async (db, skip, take) => {
      const ctx: Ctx = { db, maxUid: 0, tuning };
      // The root's probes (memoised: every plan asks its estimate before it reads, and a complete probe is a
      // leaf's answer) go out with MAX(uid), so a filter waits for one round trip before its count and page
      // instead of two or three in a row.
      [ctx.maxUid] = await Promise.all([maxUidOf(db), evaluate.estimate(ctx)]);
      const window = await evaluate.window?.(ctx, skip, take);
      if (window !== undefined) return window;
      const users = await evaluate.run(ctx, undefined);
      return { total: users.count(), uids: users.slice(skip, take) };
    };
  } catch (error) {
    if (error instanceof NotIndexed) return undefined;
    throw error;
  }
};
