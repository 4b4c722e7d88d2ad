import { z } from 'zod';
import type { Dialect, Queryable } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { foldFor } from './attr-index.ts';
import { resolveSub } from './compile.ts';
import { elementColumn } from './element-rows.ts';
import { booleanText, type Cond, textTest } from './leaf-sql.ts';
import type { FilterNode } from './parser.ts';
import { jsonList, listRow, uidIn } from './sql-lists.ts';

/**
 * A value filter's whole condition as one SQL predicate over element rows (element-rows.ts), with the semantics
 * of compile.ts's element predicate. Three-valued logic is made explicit: every comparison and `pr` is TRUE or
 * FALSE, never NULL (`column IS NOT NULL AND test`), because in compile.ts an element without the sub-attribute
 * fails a comparison, so `not (type eq "work")` holds for it; a NULL would have made the `not` NULL too and
 * dropped the element.
 */
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

/** compile.ts `isPresent` for a string or boolean: there and not the empty string. */
const present = (column: string): Cond => known(column, () => ({ text: `${column} <> ''`, params: [] }));

/** The condition of a value filter (already validated by compile.ts) on the elements of `def`. */
export const elementCondition = (node: FilterNode, def: AttrDef): Cond => {
  const recurse = (child: FilterNode): Cond => elementCondition(child, def);
  switch (node.kind) {
    case 'and':
      return joined('AND', recurse(node.left), recurse(node.right));
    case 'or':
      return joined('OR', recurse(node.left), recurse(node.right));
    case 'not':
      return negated(recurse(node.filter));
    case 'present':
      return present(elementColumn(resolveSub(def, node.path.attr, 'invalidFilter').name));
    case 'compare': {
      const sub = resolveSub(def, node.path.attr, 'invalidFilter');
      const column = elementColumn(sub.name);
      const literal = node.value;
      if (literal === null) return node.op === 'ne' ? present(column) : negated(present(column));
      const test = (op: typeof node.op): Cond =>
        known(
          column,
          sub.type === 'boolean' ? textTest(column, 'eq', booleanText(literal)) : textTest(column, op, foldFor(sub, String(literal))),
        );
      return node.op === 'ne' ? negated(test('eq')) : test(node.op);
    }
    default:
      throw new TypeError('Value filters cannot be nested (compile.ts refuses them)');
  }
};

/** The users a filter selects: how many, and the window of their uids (ascending) that a page shows. */
export type UserWindow = { readonly total: number; readonly uids: number[] };
const countRow = z.object({ n: z.number() });
const readList = async (db: Queryable, sql: string, params: readonly (string | number)[]): Promise<number[]> =>
  JSON.parse((await db.one(listRow, sql, params))?.list ?? '[]') as number[];

/**
 * A value filter evaluated on element rows. `users`: the users holding an element of `path` that meets the
 * condition, one scan of the path's rows (clustered by the primary key), or with `within` a look-up of those
 * users' rows; a user appears once per matching element. `window`: for a broad value filter that is the whole
 * filter, the count of such users and one page of them, read in the primary key's (path, uid) order, without
 * sending every matching uid (two statements, on two connections on PostgreSQL).
 */
export const scanElements = (path: string, def: AttrDef, filter: FilterNode) => {
  const condition = elementCondition(filter, def);
  const matching = (dialect: Dialect, within: readonly number[] | undefined) => {
    const test = condition(dialect);
    const restrict = within === undefined ? undefined : uidIn(dialect, within);
    return {
      text: `FROM scim_user_elems WHERE path = ? AND ${restrict === undefined ? '' : `${restrict.text} AND `}${test.text}`,
      params: [path, ...(restrict?.params ?? []), ...test.params],
    };
  };
  return {
    users: (db: Queryable, within: readonly number[] | undefined): Promise<number[]> => {
      const rows = matching(db.dialect, within);
      return readList(db, `SELECT ${jsonList(db.dialect, 'uid')} AS list ${rows.text}`, rows.params);
    },
    window: async (db: Queryable, skip: number, take: number): Promise<UserWindow> => {
      const rows = matching(db.dialect, undefined);
      const [count, uids] = await Promise.all([
        db.one(countRow, `SELECT COUNT(DISTINCT uid) AS n ${rows.text}`, rows.params),
        readList(
          db,
          `SELECT ${jsonList(db.dialect, 'uid')} AS list FROM (SELECT DISTINCT uid ${rows.text} ORDER BY uid LIMIT ? OFFSET ?) AS page`,
          [...rows.params, take, skip],
        ),
      ]);
      // Aggregates promise no order, even over an ordered subquery.
      return { total: count?.n ?? 0, uids: uids.sort((a, b) => a - b) };
    },
  };
};
