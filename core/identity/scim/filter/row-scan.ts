import { z } from 'zod';
import type { Dialect, Queryable } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { foldFor } from './attr-index.ts';
import { booleanText, type Cond, type LeafTest, orderTest, textTest } from './leaf-sql.ts';
import type { AttrPath, FilterNode } from './parser.ts';
import { jsonList, listRow, uidIn } from './sql-lists.ts';
import { boundLimit } from '../../../store/sql-text.ts';

/**
 * A filter's whole condition as one SQL predicate over rows holding one column per attribute: the element rows
 * of a value filter (element-rows.ts) or the single-valued rows of a user (single-rows.ts), with the semantics of
 * compile.ts. Three-valued logic is made explicit: every comparison and `pr` is TRUE or FALSE, never NULL
 * (`column IS NOT NULL AND test`), because in compile.ts a missing attribute fails a comparison, so `not (type eq
 * "work")` holds for it; a NULL would have made the `not` NULL too and dropped the row.
 */
export type RowColumn = {
  /** The attribute (or sub-attribute) compared, for its type and caseExact rule. */
  readonly def: AttrDef;
  readonly column: string;
  /** dateTime only: the column of its instant in epoch milliseconds (ordering compares instants). */
  readonly instant?: string;
};

const known =
  (column: string, test: Cond): Cond =>
  (dialect) => {
    const { text, params } = test(dialect);
    return { text: `(${column} IS NOT NULL AND (${text}))`, params };
  };

const joined =
  (operator: 'AND' | 'OR', left: Cond, right: Cond): Cond =>
  (dialect) => {
    const [a, b] = [left(dialect), right(dialect)];
    return { text: `(${a.text} ${operator} ${b.text})`, params: [...a.params, ...b.params] };
  };

const negated =
  (inner: Cond): Cond =>
  (dialect) => {
    const { text, params } = inner(dialect);
    return { text: `(NOT ${text})`, params };
  };

/** compile.ts `isPresent` for a string, boolean or dateTime: there and not the empty string. */
const present = (column: string): Cond => known(column, () => ({ text: `${column} <> ''`, params: [] }));

/**
 * The condition of a filter (already validated by compile.ts) on rows whose columns `columnOf` names; undefined
 * when it names an attribute without a column, or a value filter (answered by its own rows).
 */
export const rowCondition = (node: FilterNode, columnOf: (path: AttrPath) => RowColumn | undefined): Cond | undefined => {
  const recurse = (child: FilterNode): Cond | undefined => rowCondition(child, columnOf);
  switch (node.kind) {
    case 'and':
    case 'or': {
      const [left, right] = [recurse(node.left), recurse(node.right)];
      return left === undefined || right === undefined ? undefined : joined(node.kind === 'and' ? 'AND' : 'OR', left, right);
    }
    case 'not': {
      const inner = recurse(node.filter);
      return inner === undefined ? undefined : negated(inner);
    }
    case 'present': {
      const target = columnOf(node.path);
      return target === undefined ? undefined : present(target.column);
    }
    case 'compare': {
      const target = columnOf(node.path);
      const literal = node.value;
      if (target === undefined) return undefined;
      const { def, column, instant } = target;
      if (literal === null) return node.op === 'ne' ? present(column) : negated(present(column));
      const test = (op: typeof node.op): Cond => {
        if (def.type === 'boolean') return known(column, textTest(column, 'eq', booleanText(literal), true));
        if (instant !== undefined && op !== 'co' && op !== 'sw' && op !== 'ew') {
          return known(instant, orderTest(instant, op, Date.parse(literal as string)));
        }
        return known(column, textTest(column, op, foldFor(def, String(literal)), true));
      };
      return node.op === 'ne' ? negated(test('eq')) : test(node.op);
    }
    default:
      return undefined;
  }
};

/** The users a filter selects: how many, and the window of their uids (ascending) that a page shows. */
export type UserWindow = { readonly total: number; readonly uids: number[] };
const countRow = z.object({ n: z.number() });
const readList = async (db: Queryable, sql: string, params: readonly (string | number)[]): Promise<number[]> =>
  JSON.parse((await db.one(listRow, sql, params))?.list ?? '[]') as number[];

/**
 * How many users hold a matching element (element rows: primary key (path, uid, elem)) without COUNT(DISTINCT
 * uid), which sorted every matching row (100k for `emails[type eq "work" and value co "@example.com"]`: a fifth
 * of the statement on PostgreSQL). A user counts once, by their first element if it matches (`elem = 0`: one
 * row per user and path, so a plain COUNT) or else by the distinct users of their other matching elements, read
 * through the index of elements after the first (scim/009; few in most directories) with a primary-key probe of
 * the first. Two statements, at once on PostgreSQL.
 */
const laterIndex = 'scim_user_elems_later';
const elementUsers = (db: Queryable, table: string, scope: readonly LeafTest[], condition: Cond): Promise<number> => {
  const { text, params } = condition(db.dialect);
  const tests = [...scope, { text, params }];
  const where = tests.map((test) => test.text).join(' AND ');
  const values = tests.flatMap((test) => test.params);
  const count = (sql: string, all: readonly (string | number)[]) => db.one(countRow, sql, all).then((row) => row?.n ?? 0);
  return Promise.all([
    count(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where} AND elem = 0`, values),
    // Inside NOT EXISTS the unqualified columns of the condition are the first element's (z); outside, e's.
    // SQLite without statistics reads e by the primary key (every element of the path again: 27 ms at 100k
    // users, as much as the first statement) unless told; PostgreSQL picks the partial index from its estimate.
    count(
      `SELECT COUNT(DISTINCT uid) AS n FROM ${table} e${db.dialect === 'sqlite' ? ` INDEXED BY ${laterIndex}` : ''}
       WHERE ${where} AND elem > 0 AND NOT EXISTS (
         SELECT 1 FROM ${table} z WHERE z.path = e.path AND z.uid = e.uid AND z.elem = 0 AND ${text})`,
      [...values, ...params],
    ),
  ]).then(([first, later]) => first + later);
};

/**
 * A condition evaluated on the rows of `table` that `scope` selects. `users`: the matching users, one scan, or
 * with `within` a primary-key look-up of those users' rows; with `distinct` (element rows: several per user) a
 * user may appear more than once. `window`: the count of such users and one page of them, read in uid order,
 * without sending every matching uid (statements on several connections at once on PostgreSQL); `count`
 * replaces the count when the caller has a cheaper one.
 */
export const scanRows = (table: string, scope: readonly LeafTest[], condition: Cond, distinct: boolean) => {
  const unique = distinct ? 'DISTINCT ' : '';
  const matching = (dialect: Dialect, within: readonly number[] | undefined) => {
    const tests = [...scope, ...(within === undefined ? [] : [uidIn(dialect, within)]), condition(dialect)];
    return { text: `FROM ${table} WHERE ${tests.map((test) => test.text).join(' AND ')}`, params: tests.flatMap((test) => test.params) };
  };
  return {
    users: (db: Queryable, within: readonly number[] | undefined): Promise<number[]> => {
      const rows = matching(db.dialect, within);
      return readList(db, `SELECT ${jsonList(db.dialect, 'uid')} AS list ${rows.text}`, rows.params);
    },
    window: async (db: Queryable, skip: number, take: number, count?: Promise<number>): Promise<UserWindow> => {
      const rows = matching(db.dialect, undefined);
      const [total, uids] = await Promise.all([
        count ??
          (distinct
            ? elementUsers(db, table, scope, condition)
            : db.one(countRow, `SELECT COUNT(uid) AS n ${rows.text}`, rows.params).then((row) => row?.n ?? 0)),
        readList(
          db,
          `SELECT ${jsonList(db.dialect, 'uid')} AS list FROM (SELECT ${unique}uid ${rows.text} ORDER BY uid LIMIT ${boundLimit} OFFSET ?) AS page`,
          [...rows.params, take, skip],
        ),
      ]);
      // Aggregates promise no order, even over an ordered subquery.
      return { total, uids: uids.sort((a, b) => a - b) };
    },
  };
};
