import type { Queryable } from '../../../store/database.ts';
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

/**
 * The users holding an element of `path` that meets the condition: one scan of the path's rows (clustered by
 * the primary key), or with `within` a look-up of those users' rows. A user appears once per matching element.
 */
export const scanElements = (path: string, def: AttrDef, filter: FilterNode) => {
  const condition = elementCondition(filter, def);
  return async (db: Queryable, within: readonly number[] | undefined): Promise<number[]> => {
    const test = condition(db.dialect);
    const restrict = within === undefined ? undefined : uidIn(db.dialect, within);
    const row = await db.one(
      listRow,
      `SELECT ${jsonList(db.dialect, 'uid')} AS list FROM scim_user_elems
       WHERE path = ? AND ${restrict === undefined ? '' : `${restrict.text} AND `}${test.text}`,
      [path, ...(restrict?.params ?? []), ...test.params],
    );
    return JSON.parse(row?.list ?? '[]') as number[];
  };
};
