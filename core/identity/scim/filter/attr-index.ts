import type { SqlValue } from '../../../store/database.ts';
import type { Db } from '../../../store/db.ts';
import type { Json } from '../normalize.ts';
import { type AttrDef, type ResourceKind, schemasOf, subAttrsOf } from '../schema.ts';

/**
 * The SCIM attribute index: one row per stored attribute value of a user, so that every filter the SQL compiler
 * accepts (filter/sql.ts) is answered from indexes instead of by parsing every resource. Values are stored the
 * way the in-process filter (filter/compile.ts) compares them: strings folded to lower case unless the attribute
 * is caseExact, dateTimes as their text plus epoch milliseconds, numbers as numbers, booleans as 'true'/'false'.
 * A complex value also gets a marker row (`kind` 'e', `num` = its number of sub-attributes) that stands for the
 * element itself (value filters, `pr` on a complex attribute, `not` inside a value filter).
 */
export type IndexKind = 's' | 'n' | 'b' | 'e';
export type IndexRow = {
  readonly path: string;
  readonly elem: number;
  readonly kind: IndexKind;
  readonly str: string | null;
  readonly num: number | null;
};

/**
 * Attributes whose value is not in the stored resource: `groups` comes from memberships, `meta.location` from
 * the request's base URL, and `password` is never indexed (a filter must not become a password oracle through a
 * faster path; the in-process fallback treats it as before). Filters naming them fall back to evaluation in JS.
 */
export const unindexedPaths: ReadonlySet<string> = new Set(['groups', 'meta.location', 'password']);

/** The index key of an attribute: `[extension URN ":"] name ["." sub]`, with the schema's spelling. */
export const indexPath = (extensionUrn: string | undefined, def: AttrDef, sub?: AttrDef): string =>
  `${extensionUrn === undefined ? '' : `${extensionUrn}:`}${def.name}${sub === undefined ? '' : `.${sub.name}`}`;

/** How the in-process filter folds a string of this attribute before comparing (RFC 7643 2.2 caseExact). */
export const foldFor = (def: AttrDef, text: string): string =>
  (def.type === 'string' || def.type === 'reference') && !def.caseExact ? text.toLowerCase() : text;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const leaf = (path: string, elem: number, def: AttrDef, value: unknown): IndexRow | undefined => {
  if (typeof value === 'string') {
    const millis = def.type === 'dateTime' ? Date.parse(value) : Number.NaN;
    return { path, elem, kind: 's', str: foldFor(def, value), num: Number.isNaN(millis) ? null : millis };
  }
  if (typeof value === 'number') return { path, elem, kind: 'n', str: null, num: value };
  if (typeof value === 'boolean') return { path, elem, kind: 'b', str: String(value), num: null };
  return undefined;
};

const complexRows = (path: string, elem: number, def: AttrDef, value: unknown, rows: IndexRow[]): void => {
  if (!isObject(value)) return;
  rows.push({ path, elem, kind: 'e', str: null, num: Object.keys(value).length });
  for (const sub of subAttrsOf(def)) {
    const subPath = `${path}.${sub.name}`;
    const row = unindexedPaths.has(subPath) ? undefined : leaf(subPath, elem, sub, value[sub.name]);
    if (row !== undefined) rows.push(row);
  }
};

/** The index rows of a wire-format resource (as filters see it). */
export const indexRowsOf = (kind: ResourceKind, resource: Json): IndexRow[] => {
  const rows: IndexRow[] = [];
  const [core, ...extensions] = schemasOf[kind];
  for (const schema of [core, ...extensions]) {
    if (schema === undefined) continue;
    const extensionUrn = schema === core ? undefined : schema.urn;
    const container = extensionUrn === undefined ? resource : resource[extensionUrn];
    if (!isObject(container)) continue;
    for (const def of schema.attributes) {
      const path = indexPath(extensionUrn, def);
      if (unindexedPaths.has(path)) continue;
      const values = def.multiValued ? container[def.name] : [container[def.name]];
      if (!Array.isArray(values)) continue;
      values.forEach((value, elem) => {
        if (def.type === 'complex') complexRows(path, elem, def, value, rows);
        else {
          const row = leaf(path, elem, def, value);
          if (row !== undefined) rows.push(row);
        }
      });
    }
  }
  return rows;
};

/**
 * Creates the user attribute index. Users get a small integer `uid` (stable, unlike SQLite's implicit rowid,
 * which VACUUM may renumber) so filter evaluation can combine sets as bitsets; rows are keyed by it and the two
 * value indexes cover the (uid, elem) a filter leaf needs. The migration backfills it from existing users.
 */
export const createUserIndexTable = (db: Db): void => {
  db.exec(`
    ALTER TABLE scim_users ADD COLUMN uid INTEGER;
    UPDATE scim_users SET uid = rowid;
    CREATE UNIQUE INDEX scim_users_uid ON scim_users (uid);
    CREATE TABLE scim_user_attrs (
      uid INTEGER NOT NULL,
      path TEXT NOT NULL,
      elem INTEGER NOT NULL,
      kind TEXT NOT NULL,
      str TEXT,
      num REAL,
      PRIMARY KEY (uid, path, elem, kind)
    ) WITHOUT ROWID;
    CREATE INDEX scim_user_attrs_str ON scim_user_attrs (path, kind, str);
    CREATE INDEX scim_user_attrs_num ON scim_user_attrs (path, kind, num);
  `);
};

/** One multi-row INSERT of `count` index rows (a single round trip on PostgreSQL); its parameters come from `indexParams`. */
export const indexInsertSql = (count: number): string =>
  `INSERT INTO scim_user_attrs (uid, path, elem, kind, str, num) VALUES ${Array.from({ length: count }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`;

export const indexParams = (uid: number, rows: readonly IndexRow[]): SqlValue[] =>
  rows.flatMap((row) => [uid, row.path, row.elem, row.kind, row.str, row.num]);
