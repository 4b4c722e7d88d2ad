import type { Queryable, SqlValue } from '../../../store/database.ts';
import type { Db } from '../../../store/db.ts';
import { type AttrDef, schemasOf, subAttrsOf } from '../schema.ts';
import { type IndexRow, indexPath, unindexedPaths } from './attr-index.ts';
import { resolveAttr, resolveSub } from './compile.ts';
import type { AttrPath, FilterNode } from './parser.ts';
import { type RowColumn, rowCondition, scanRows } from './row-scan.ts';

/**
 * One row per user (`scim_user_singles`, keyed by uid) with a column per single-valued attribute the attribute
 * index holds (userName, title, active, meta.lastModified, name.givenName, the enterprise ones, ...), beside the
 * index (attr-index.ts) and written from the same rows. A root-scope `and`/`or`/`not` of such attributes that
 * selects many users (`not (title eq "Engineer") and active eq true`) is then one scan of this table in uid order
 * with the whole condition, counted and paged in SQL, instead of one index scan and one 100k-uid aggregate per
 * leaf combined as bitsets. A column holds what the index's `str` holds (the string folded as compile.ts
 * compares it, 'true' / 'false', a dateTime's text) and a dateTime also its instant (`_ms`, the index's `num`);
 * NULL where the user lacks the attribute.
 */
type SingleColumn = RowColumn & {
  /** The attribute index path (attr-index.ts `indexPath`). */
  readonly path: string;
};

// Numbers would need a numeric column: no single-valued User attribute is one, checked at load.
const textTypes: ReadonlySet<AttrDef['type']> = new Set(['string', 'reference', 'boolean', 'dateTime']);

const singleColumns = (): SingleColumn[] => {
  const columns: SingleColumn[] = [];
  const [core, ...extensions] = schemasOf.User;
  for (const schema of [core, ...extensions]) {
    if (schema === undefined) continue;
    const extensionUrn = schema === core ? undefined : schema.urn;
    for (const def of schema.attributes.filter((attr) => !attr.multiValued)) {
      const leaves: [AttrDef, AttrDef | undefined][] =
        def.type === 'complex' ? subAttrsOf(def).map((sub) => [sub, sub]) : [[def, undefined]];
      for (const [leaf, sub] of leaves) {
        const path = indexPath(extensionUrn, def, sub);
        if (unindexedPaths.has(path) || unindexedPaths.has(indexPath(extensionUrn, def))) continue;
        if (!textTypes.has(leaf.type)) throw new TypeError(`Single-valued rows cannot hold ${path} (${leaf.type})`);
        // Names come from the schema, never from filter text; the prefix keeps SQL words (`name`) and the
        // extension's attributes apart.
        const column = `${extensionUrn === undefined ? 'c' : 'x'}_${[def.name, sub?.name].filter(Boolean).join('_').replace(/\W/g, '').toLowerCase()}`;
        columns.push({ path, def: leaf, column, ...(leaf.type === 'dateTime' ? { instant: `${column}_ms` } : {}) });
      }
    }
  }
  return columns;
};

const singleColumnList: readonly SingleColumn[] = singleColumns();
const byPath = new Map(singleColumnList.map((column) => [column.path, column]));

/** The column of a root-scope path; undefined for a multi-valued or a whole complex attribute. */
const columnOf = (path: AttrPath): SingleColumn | undefined => {
  const { def, extensionUrn } = resolveAttr('User', path, 'invalidFilter');
  return byPath.get(indexPath(extensionUrn, def, path.sub === undefined ? undefined : resolveSub(def, path.sub, 'invalidFilter')));
};

/** Every SQL column after uid with its type, in insertion order: each attribute's text, then a dateTime's instant. */
const sqlColumns: readonly (readonly [string, 'TEXT' | 'REAL'])[] = singleColumnList.flatMap(({ column, instant }) =>
  instant === undefined ? [[column, 'TEXT'] as const] : [[column, 'TEXT'] as const, [instant, 'REAL'] as const],
);
export const singleSqlColumns: readonly string[] = sqlColumns.map(([name]) => name);
if (new Set(singleSqlColumns).size !== singleSqlColumns.length) throw new TypeError('Single-valued row columns collide');

/**
 * Fills the table from the attribute index in one pass over its primary key (uid order): the migration's
 * backfill, the same SQL on both back ends. Every user has index rows (`id` at least), so every user gets a row.
 */
export const backfillSingleRowsSql = `
  INSERT INTO scim_user_singles (uid, ${singleSqlColumns.join(', ')})
    SELECT uid, ${singleColumnList
      .flatMap(({ path, instant }) => [
        `MAX(CASE WHEN path = '${path}' AND kind IN ('s', 'b') THEN str END)`,
        ...(instant === undefined ? [] : [`MAX(CASE WHEN path = '${path}' AND kind = 's' THEN num END)`]),
      ])
      .join(',\n      ')}
    FROM scim_user_attrs GROUP BY uid`;

/** The table (uid is SQLite's rowid: rows are stored in uid order), backfilled; PostgreSQL gets it translated. */
export const createSingleRows = (db: Db): void => {
  db.exec(`
    CREATE TABLE scim_user_singles (
      uid INTEGER PRIMARY KEY,
      ${sqlColumns.map(([name, type]) => `${name} ${type}`).join(',\n      ')}
    )
  `);
  db.exec(backfillSingleRowsSql);
};

/**
 * Columns first in the table since scim/008, in this order; the rest follow in schema order, then `trailing`.
 * A scan decodes each row's columns from the first up to the last one its condition reads (PostgreSQL's
 * slot_deform_heap_tuple, SQLite's record header alike), and past the first text or NULL column every column
 * costs a step: in schema order `active` was the 25th column, and on PostgreSQL `COUNT(*) WHERE active IS NOT
 * NULL` over 100k rows cost about twice `WHERE id IS NOT NULL` (the 2nd). So the fixed-width instants come first
 * (their offsets are cached), then the attributes SCIM clients filter on most; `id` (its own look-up), the
 * constant `meta.resourceType`, `meta.version` and the dateTimes' text (read only by co/sw/ew) come last.
 */
const leading = [
  'c_meta_lastmodified_ms',
  'c_meta_created_ms',
  'c_active',
  'c_username',
  'c_externalid',
  'c_title',
  'c_displayname',
  'c_name_familyname',
  'c_name_givenname',
  'x_employeenumber',
  'x_department',
  'x_manager_value',
];
const trailing = ['c_meta_version', 'c_meta_created', 'c_meta_lastmodified', 'c_meta_resourcetype', 'c_id'];
const missing = [...leading, ...trailing].filter((name) => !singleSqlColumns.includes(name));
if (missing.length > 0) throw new TypeError(`Single-valued rows have no column ${missing.join(', ')}`);
const rank = (name: string): number =>
  leading.includes(name) ? leading.indexOf(name) - leading.length : trailing.includes(name) ? 1 + trailing.indexOf(name) : 0;
/** Every SQL column in scan order (the sort is stable: schema order among the unranked). */
export const scanOrderColumns: readonly string[] = [...sqlColumns].sort(([a], [b]) => rank(a) - rank(b)).map(([name]) => name);

/**
 * scim/008: the same table with its columns in scan order and its rows copied (a table's column order is fixed
 * when it is created). PostgreSQL runs the same statements and then renames the primary key's index back.
 */
export const reorderSingleRowsSql = `
    CREATE TABLE scim_user_singles_next (
      uid INTEGER PRIMARY KEY,
      ${scanOrderColumns.map((name) => `${name} ${sqlColumns.find(([column]) => column === name)?.[1]}`).join(',\n      ')}
    );
    INSERT INTO scim_user_singles_next (uid, ${singleSqlColumns.join(', ')})
      SELECT uid, ${singleSqlColumns.join(', ')} FROM scim_user_singles ORDER BY uid;
    DROP TABLE scim_user_singles;
    ALTER TABLE scim_user_singles_next RENAME TO scim_user_singles`;
export const reorderSingleRows = (db: Db): void => {
  db.exec(reorderSingleRowsSql);
};

const insertSql = `INSERT INTO scim_user_singles (uid, ${singleSqlColumns.join(', ')}) VALUES (?, ${singleSqlColumns.map(() => '?').join(', ')})`;

/** The row's values of one user, from its attribute index rows (so both tables always agree). */
export const singleValuesOf = (rows: readonly IndexRow[]): SqlValue[] => {
  const found = new Map<string, IndexRow>();
  for (const row of rows) if (row.kind === 's' || row.kind === 'b') found.set(row.path, row);
  return singleColumnList.flatMap(({ path, instant }) => {
    const row = found.get(path);
    return instant === undefined ? [row?.str ?? null] : [row?.str ?? null, row?.num ?? null];
  });
};

/** Replaces a user's row (inside the caller's write transaction, with its attribute index rows). */
export const writeSingleRow = async (tx: Queryable, uid: number, rows: readonly IndexRow[] | undefined): Promise<void> => {
  await tx.run('DELETE FROM scim_user_singles WHERE uid = ?', [uid]);
  if (rows !== undefined) await tx.run(insertSql, [uid, ...singleValuesOf(rows)]);
};

/**
 * A root-scope filter (already validated by compile.ts) as one scan of the single-valued rows (row-scan.ts), in
 * uid order; undefined when it names anything else (a multi-valued attribute, `name pr`, a value filter).
 */
export const scanSingles = (node: FilterNode) => {
  const condition = rowCondition(node, columnOf);
  return condition === undefined ? undefined : scanRows('scim_user_singles', [], condition, false);
};
