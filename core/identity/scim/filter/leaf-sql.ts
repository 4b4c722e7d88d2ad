import type { Dialect } from '../../../store/database.ts';
import type { AttrDef } from '../schema.ts';
import { foldFor } from './attr-index.ts';
import type { CompareOp, CompValue } from './parser.ts';

/**
 * The SQL test of one filter leaf over the attribute index rows of one path (attr-index.ts), with the semantics
 * of the in-process predicate (compile.ts). `seekable` says an index range answers it (equality or order on the
 * value indexes): such a leaf's size can be probed cheaply, while the others (co, ew, pr) scan every row of
 * their path whatever happens.
 */
export type LeafTest = { readonly text: string; readonly params: readonly (string | number)[]; readonly seekable: boolean };
export type Cond = (dialect: Dialect) => LeafTest;

const cond =
  (text: string, seekable: boolean, ...params: (string | number)[]): Cond =>
  () => ({ text, params, seekable });
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
  if (op === 'eq') return cond(`kind = 's' AND str = ?`, true, literal);
  if (ordered !== undefined) {
    // Under COLLATE "C" PostgreSQL cannot use the index (database collation): a scan, so not probed there.
    return (dialect) =>
      dialect === 'postgres'
        ? { text: `kind = 's' AND str COLLATE "C" ${ordered} ?`, params: [literal], seekable: false }
        : { text: `kind = 's' AND str ${ordered} ?`, params: [literal], seekable: true };
  }
  if (literal === '') return cond(`kind = 's'`, false);
  const pattern = likePatterns[op]?.(literal) ?? '';
  return (dialect) => {
    // PostgreSQL's LIKE is case-sensitive: the column holds exactly what compile.ts compares.
    if (dialect === 'postgres') return { text: `kind = 's' AND str LIKE ? ESCAPE '\\'`, params: [pattern], seekable: false };
    // SQLite's LIKE folds ASCII case, so it keeps the byte-exact forms. UTF-8 never contains the byte 0xFF, so
    // [p, p || 0xFF) holds exactly the strings that start with p.
    if (op === 'sw') return { text: `kind = 's' AND str >= ? AND str < (? || x'ff')`, params: [literal, literal], seekable: true };
    if (op === 'ew') return { text: `kind = 's' AND substr(str, -?) = ?`, params: [[...literal].length, literal], seekable: false };
    return { text: `kind = 's' AND instr(str, ?) > 0`, params: [literal], seekable: false };
  };
};

/** Value tests with the semantics of compile.ts `valueTest` (the filter was already validated by it). */
export const compareCond = (def: AttrDef, op: CompareOp, literal: Exclude<CompValue, null>): Cond => {
  switch (def.type) {
    case 'boolean':
      return cond(`kind = 'b' AND str = ?`, true, String(typeof literal === 'string' ? literal.toLowerCase() === 'true' : literal));
    case 'integer':
    case 'decimal':
      return cond(`kind = 'n' AND num ${orderOps[op] ?? '='} ?`, true, literal as number);
    case 'dateTime':
      if (op === 'co' || op === 'sw' || op === 'ew') return stringCond(op, literal as string);
      return cond(`kind = 's' AND num ${orderOps[op] ?? '='} ?`, true, Date.parse(literal as string));
    default:
      return stringCond(op, foldFor(def, literal as string));
  }
};

/** `pr`: a non-empty string, any number or boolean, or a complex value with at least one sub-attribute. */
export const presentCond = (def: AttrDef): Cond =>
  def.type === 'complex' ? cond(`kind = 'e' AND num > 0`, false) : cond(`kind IN ('s', 'n', 'b') AND str IS DISTINCT FROM ''`, false);
