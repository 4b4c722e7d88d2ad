import type { Dialect } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { foldFor } from './attr-index.ts';
import type { CompareOp, CompValue } from './parser.ts';

/**
 * The SQL test of one filter leaf over the attribute index rows of one path (attr-index.ts), with the semantics
 * of the in-process predicate (compile.ts). On PostgreSQL, strings are compared under COLLATE "C" (code point
 * order, whatever the database's locale), which is how its value index is collated (scim/005): equality, order
 * and `sw` are ranges of that index, `ew` a range of the reversed-string index, and `co` the trigram index or a
 * scan of the path.
 */
export type LeafTest = { readonly text: string; readonly params: readonly (string | number)[] };
export type Cond = (dialect: Dialect) => LeafTest;

const cond =
  (text: string, ...params: (string | number)[]): Cond =>
  () => ({ text, params });
/** A text column compared by code point (SQLite's BINARY already orders so; PostgreSQL's value index is collated "C"). */
const collated = (column: string, dialect: Dialect): string => (dialect === 'postgres' ? `${column} COLLATE "C"` : column);
const orderOps: Partial<Record<CompareOp, string>> = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' };

/** A LIKE pattern matching `literal` literally (backslash is the ESCAPE character). */
const likeLiteral = (literal: string): string => literal.replace(/[\\%_]/g, (char) => `\\${char}`);
/** By code point, as PostgreSQL's reverse() does in a UTF-8 database. */
const reversed = (text: string): string => [...text].reverse().join('');

/**
 * String tests with the semantics of compile.ts `stringTest` on one text column holding the folded value (the
 * literal is already folded). Where the column is NULL the test is NULL (callers that negate must say so).
 * `scan`: the test runs on every row of a scan (row-scan.ts), not on an index range.
 */
export const textTest = (column: string, op: CompareOp, literal: string, scan = false): Cond => {
  const ordered = orderOps[op];
  if (ordered !== undefined) return (dialect) => ({ text: `${collated(column, dialect)} ${ordered} ?`, params: [literal] });
  if (literal === '') return cond('TRUE');
  return (dialect) => {
    if (dialect === 'postgres') {
      // LIKE is case-sensitive on PostgreSQL: the column holds exactly what compile.ts compares (never ILIKE:
      // caseExact values must stay exact). A constant prefix under "C" is a range of the value index.
      if (op === 'sw') return { text: `${column} COLLATE "C" LIKE ? ESCAPE '\\'`, params: [`${likeLiteral(literal)}%`] };
      // `ew` is a prefix range of the reversed-string index; a scan tests the suffix itself (reverse() on every
      // row doubled the cost of a 100k-row scan).
      if (op === 'ew' && scan) return { text: `${column} COLLATE "C" LIKE ? ESCAPE '\\'`, params: [`%${likeLiteral(literal)}`] };
      if (op === 'ew') return { text: `reverse(${column}) COLLATE "C" LIKE ? ESCAPE '\\'`, params: [`${likeLiteral(reversed(literal))}%`] };
      return { text: `${column} LIKE ? ESCAPE '\\'`, params: [`%${likeLiteral(literal)}%`] };
    }
    // SQLite's LIKE folds ASCII case, so it keeps the byte-exact forms. UTF-8 never contains the byte 0xFF, so
    // [p, p || 0xFF) holds exactly the strings that start with p.
    if (op === 'sw') return { text: `${column} >= ? AND ${column} < (? || x'ff')`, params: [literal, literal] };
    if (op === 'ew') return { text: `substr(${column}, -?) = ?`, params: [[...literal].length, literal] };
    return { text: `instr(${column}, ?) > 0`, params: [literal] };
  };
};

/** A number (or a dateTime's instant) in `column` ordered against `value`. */
export const orderTest = (column: string, op: CompareOp, value: number): Cond => cond(`${column} ${orderOps[op] ?? '='} ?`, value);

/** A boolean as the index stores it ('true' / 'false'); compile.ts accepts "True"/"false" strings as literals. */
export const booleanText = (literal: Exclude<CompValue, null>): string =>
  String(typeof literal === 'string' ? literal.toLowerCase() === 'true' : literal);

const ofKind =
  (kind: string, test: Cond): Cond =>
  (dialect) => {
    const { text, params } = test(dialect);
    return { text: `kind = '${kind}' AND ${text}`, params };
  };

/** Value tests with the semantics of compile.ts `valueTest` (the filter was already validated by it). */
export const compareCond = (def: AttrDef, op: CompareOp, literal: Exclude<CompValue, null>): Cond => {
  switch (def.type) {
    case 'boolean':
      return ofKind('b', textTest('str', 'eq', booleanText(literal)));
    case 'integer':
    case 'decimal':
      return ofKind('n', orderTest('num', op, literal as number));
    case 'dateTime':
      if (op === 'co' || op === 'sw' || op === 'ew') return ofKind('s', textTest('str', op, literal as string));
      return ofKind('s', orderTest('num', op, Date.parse(literal as string)));
    default:
      return ofKind('s', textTest('str', op, foldFor(def, literal as string)));
  }
};

/** `pr`: a non-empty string, any number or boolean, or a complex value with at least one sub-attribute. */
export const presentCond = (def: AttrDef): Cond =>
  def.type === 'complex' ? cond(`kind = 'e' AND num > 0`) : cond(`kind IN ('s', 'n', 'b') AND str IS DISTINCT FROM ''`);
