import type { Queryable, SqlValue } from '../../../store/database.ts';
import type { Db } from '../../../store/db.ts';
import { type AttrDef, findAttr, subAttrsOf, userAttributes } from '../schema.ts';
import type { IndexRow } from './attr-index.ts';

/**
 * One row per element of a multi-valued complex User attribute (`scim_user_elems`: path, uid, elem and a column
 * per sub-attribute), beside the attribute index (attr-index.ts) and written from the same rows. A value filter
 * that selects many elements (`emails[type eq "work" and value co "@example.com"]`) is then one scan of its
 * path testing the whole condition per element (element-scan.ts), instead of one scan and one 100k-row
 * aggregate per sub-attribute combined as element sets. Columns hold what the index's `str` holds: the string
 * folded as compile.ts compares it, or 'true' / 'false'; NULL where the element has no such sub-attribute.
 */
export const elementColumnNames = [
  'value',
  'display',
  'type',
  'primary',
  'formatted',
  'streetAddress',
  'locality',
  'region',
  'postalCode',
  'country',
] as const;

/** The SQL column of a sub-attribute (prefixed: `value`, `type` and `primary` are SQL words). */
export const elementColumn = (name: string): string => `sub_${name.toLowerCase()}`;

/**
 * The attributes with element rows: every multi-valued complex User attribute but `groups` (derived from
 * memberships, not indexed). All their sub-attributes are strings, references or booleans, so one TEXT column
 * each holds them; checked below, so a schema change cannot silently leave a sub-attribute out.
 */
export const elementPaths: readonly string[] = [
  'emails',
  'phoneNumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509Certificates',
];

const textTypes: ReadonlySet<AttrDef['type']> = new Set(['string', 'reference', 'boolean']);
for (const path of elementPaths) {
  const def = findAttr(userAttributes, path);
  const bad = (def === undefined ? [] : subAttrsOf(def)).find(
    (sub) => !textTypes.has(sub.type) || !(elementColumnNames as readonly string[]).includes(sub.name),
  );
  if (def === undefined || def.type !== 'complex' || !def.multiValued || bad !== undefined) {
    throw new TypeError(`Element rows cannot hold ${path}${bad === undefined ? '' : `.${bad.name}`}`);
  }
}

/** Whether value filters on this attribute (a core User attribute) can be answered from element rows. */
export const hasElementRows = (extensionUrn: string | undefined, def: AttrDef): boolean =>
  extensionUrn === undefined && elementPaths.includes(def.name);

const columns = elementColumnNames.map(elementColumn);
const pathList = elementPaths.map((path) => `'${path}'`).join(', ');

const sub = (name: string): string =>
  `(SELECT s.str FROM scim_user_attrs s WHERE s.uid = e.uid AND s.path = e.path || '.${name}' AND s.elem = e.elem AND s.kind IN ('s', 'b'))`;

/**
 * Fills the table from the attribute index, whose marker rows (`kind` 'e') are exactly the elements and whose
 * sub-attribute rows hold the column values: the migration's backfill, the same SQL on both back ends.
 */
export const backfillElementRowsSql = `
  INSERT INTO scim_user_elems (path, uid, elem, ${columns.join(', ')})
    SELECT e.path, e.uid, e.elem, ${elementColumnNames.map(sub).join(',\n      ')}
    FROM scim_user_attrs e WHERE e.kind = 'e' AND e.path IN (${pathList})`;

/**
 * The table, backfilled (translated for PostgreSQL by store/postgres-ddl.ts). The primary key clusters a path's
 * rows, so a scan reads only them, and serves the look-up of given users (`uid IN ...`) and the writer's delete.
 */
export const createElementRows = (db: Db): void => {
  db.exec(`
    CREATE TABLE scim_user_elems (
      path TEXT NOT NULL,
      uid INTEGER NOT NULL,
      elem INTEGER NOT NULL,
      ${columns.map((column) => `${column} TEXT`).join(',\n      ')},
      PRIMARY KEY (path, uid, elem)
    ) WITHOUT ROWID
  `);
  db.exec(backfillElementRowsSql);
};

type ElementRow = { readonly path: string; readonly elem: number; readonly values: (string | null)[] };

/** The element rows of one user, from its attribute index rows (so both tables always agree). */
export const elementRowsOf = (rows: readonly IndexRow[]): ElementRow[] => {
  const byKey = new Map<string, ElementRow>();
  for (const row of rows) {
    if (row.kind === 'e' && elementPaths.includes(row.path)) {
      const element = { path: row.path, elem: row.elem, values: columns.map(() => null) };
      byKey.set(`${row.path}\u0000${row.elem}`, element);
    }
  }
  for (const row of rows) {
    const dot = row.path.indexOf('.');
    const element = dot < 0 ? undefined : byKey.get(`${row.path.slice(0, dot)}\u0000${row.elem}`);
    const at = elementColumnNames.indexOf(row.path.slice(dot + 1) as (typeof elementColumnNames)[number]);
    if (element !== undefined && at >= 0 && (row.kind === 's' || row.kind === 'b')) element.values[at] = row.str;
  }
  return [...byKey.values()];
};

// Rows per INSERT: a small finite set of statement texts, as for the attribute index.
const chunkSize = 32;
const insertSql = (count: number): string =>
  `INSERT INTO scim_user_elems (path, uid, elem, ${columns.join(', ')}) VALUES ${Array.from(
    { length: count },
    () => `(?, ?, ?, ${columns.map(() => '?').join(', ')})`,
  ).join(', ')}`;

/** Replaces a user's element rows (inside the caller's write transaction, with its attribute index rows). */
export const writeElementRows = async (tx: Queryable, uid: number, rows: readonly IndexRow[] | undefined): Promise<void> => {
  await tx.run(`DELETE FROM scim_user_elems WHERE path IN (${pathList}) AND uid = ?`, [uid]);
  if (rows === undefined) return;
  const elements = elementRowsOf(rows);
  for (let start = 0; start < elements.length; start += chunkSize) {
    const chunk = elements.slice(start, start + chunkSize);
    const params: SqlValue[] = chunk.flatMap((element) => [element.path, uid, element.elem, ...element.values]);
    await tx.run(insertSql(chunk.length), params);
  }
};
