import type { AttrDef } from '../schema.ts';
import { resolveSub } from './compile.ts';
import { elementColumn } from './element-rows.ts';
import type { FilterNode } from './parser.ts';
import { rowCondition, scanRows } from './row-scan.ts';

/**
 * A value filter evaluated on element rows (element-rows.ts): its whole condition as one predicate per element
 * (row-scan.ts), with the semantics of compile.ts's element predicate. `users`: the users holding an element of
 * `path` that meets the condition, one scan of the path's rows (clustered by the primary key), or with `within` a
 * look-up of those users' rows; a user appears once per matching element. `window`: for a broad value filter
 * that is the whole filter, the count of such users and one page of them, read in the primary key's (path, uid)
 * order.
 */
export const scanElements = (path: string, def: AttrDef, filter: FilterNode) => {
  const condition = rowCondition(filter, (sub) => {
    const attr = resolveSub(def, sub.attr, 'invalidFilter');
    return { def: attr, column: elementColumn(attr.name) };
  });
  if (condition === undefined) throw new TypeError('Value filters cannot be nested (compile.ts refuses them)');
  return scanRows('scim_user_elems', [{ text: 'path = ?', params: [path] }], condition, true);
};
