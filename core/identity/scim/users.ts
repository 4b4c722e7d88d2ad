import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Queryable } from '../../store/database.ts';
import { revokeKeysOfUser } from '../api-keys/service.ts';
import { revokeSessionsOfUser } from '../sso/sessions.ts';
import { notFound } from './errors.ts';
import { writeUserIndex } from './filter/index-writer.ts';
import { newId } from './ids.ts';
import { pageOf, pageParams, prepareFilter, sortResources } from './list.ts';
import { type Json, normalizeResource } from './normalize.ts';
import { applyPatch, parsePatchRequest } from './patch.ts';
import type { ListQuery, ResourcePage } from './types.ts';
import { type GroupRef, type UserRow, userRowSchema, userToWire } from './wire.ts';
import { checkIfMatch, forUpdate, uniqueUserName, writeTransaction } from './write.ts';
import { boundLimit } from '../../store/sql-text.ts';

/** userName is caseExact false (RFC 7643 4.1.1): its key folds case, and the UNIQUE index on it enforces that. */
export const userNameKey = (userName: string): string => userName.toLowerCase();

const userColumns = 'id, uid, user_name, external_id, active, resource, version, created_at, updated_at';

const requireRow = async (db: Queryable, id: string, lock = ''): Promise<UserRow> => {
  const row = await db.one(userRowSchema, `SELECT ${userColumns} FROM scim_users WHERE id = ?${lock}`, [id]);
  if (row === undefined) throw notFound('User', id);
  return row;
};

const groupRefRow = z.object({ user_id: z.string(), id: z.string(), display_name: z.string() });

/** Group references of the given users, keyed by user id (read in chunks below SQLite's parameter limit). */
const groupsOf = async (db: Queryable, userIds: readonly string[]): Promise<Map<string, GroupRef[]>> => {
  const map = new Map<string, GroupRef[]>();
  for (let start = 0; start < userIds.length; start += 500) {
    const chunk = userIds.slice(start, start + 500);
    const rows = await db.all(
      groupRefRow,
      `SELECT m.user_id, g.id, g.display_name FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
       WHERE m.user_id IN (${chunk.map(() => '?').join(',')}) ORDER BY g.id`,
      chunk,
    );
    for (const row of rows) {
      const list = map.get(row.user_id) ?? [];
      list.push({ id: row.id, displayName: row.display_name });
      map.set(row.user_id, list);
    }
  }
  return map;
};

const toWire = async (db: Queryable, row: UserRow, baseUrl: string): Promise<Json> =>
  userToWire(row, (await groupsOf(db, [row.id])).get(row.id) ?? [], baseUrl);

/** Brings the row's filter index up to date (in the caller's write transaction) and returns the row. */
const indexed = async (tx: Queryable, row: UserRow): Promise<UserRow> => {
  await writeUserIndex(tx, row.uid, userToWire(row, [], ''));
  return row;
};

const columnsOf = (resource: Json): { userName: string; externalId: string | null; active: number } => ({
  userName: resource['userName'] as string,
  externalId: typeof resource['externalId'] === 'string' ? resource['externalId'] : null,
  active: resource['active'] === false ? 0 : 1,
});

/**
 * Creates a user from an RFC 7643 User body; 409 uniqueness when the userName exists in any letter case. The
 * uid is MAX+1, so creates are serialised (across instances on PostgreSQL) to keep it unique.
 */
export const createUser = async (app: App, body: unknown, baseUrl: string): Promise<Json> => {
  const resource = normalizeResource('User', body);
  if (resource['active'] === undefined) resource['active'] = true;
  const { userName, externalId, active } = columnsOf(resource);
  const id = newId(app, 'scim-user-');
  const now = app.now().toISOString();
  return app.database.serialized('scim-users', async (tx) => {
    await uniqueUserName(() =>
      tx.run(
        `INSERT INTO scim_users (id, uid, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at)
           VALUES (?, (SELECT COALESCE(MAX(uid), 0) + 1 FROM scim_users), ?, ?, ?, ?, ?, 1, ?, ?)`,
        [id, userName, userNameKey(userName), externalId, active, JSON.stringify(resource), now, now],
      ),
    );
    return toWire(tx, await indexed(tx, await requireRow(tx, id)), baseUrl);
  });
};

export const getUser = async (app: App, id: string, baseUrl: string): Promise<Json> =>
  toWire(app.database, await requireRow(app.database, id), baseUrl);

/**
 * Stores a new state of a user (PUT or PATCH result) in the caller's transaction: bumps the version when
 * anything changed, and on deactivation revokes the user's SSO sessions and API keys in the same transaction.
 */
const storeUser = async (app: App, tx: Queryable, row: UserRow, next: Json): Promise<UserRow> => {
  if (next['active'] === undefined) next['active'] = row.active === 1;
  const serialized = JSON.stringify(next);
  if (serialized === row.resource) return row;
  const { userName, externalId, active } = columnsOf(next);
  const now = app.now().toISOString();
  await uniqueUserName(() =>
    tx.run(
      `UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, active = ?, resource = ?,
         version = version + 1, updated_at = ? WHERE id = ?`,
      [userName, userNameKey(userName), externalId, active, serialized, now, row.id],
    ),
  );
  if (row.active === 1 && active === 0) {
    const sessions = await revokeSessionsOfUser(tx, now, row.id);
    const keys = await revokeKeysOfUser(app, row.id, tx);
    app.log.info({ userId: row.id, sessions, keys }, 'scim user deactivated; sessions and keys revoked');
  }
  return indexed(tx, await requireRow(tx, row.id));
};

/** PUT: replaces every writable attribute (RFC 7644 3.5.1); readOnly ones in the body are ignored. */
export const replaceUser = async (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Promise<Json> => {
  const next = normalizeResource('User', body);
  return writeTransaction(app, async (tx) => {
    const row = await requireRow(tx, id, forUpdate(tx));
    checkIfMatch(ifMatch, row.version);
    return toWire(tx, await storeUser(app, tx, row, next), baseUrl);
  });
};

/** PATCH (RFC 7644 3.5.2): all operations apply or none do. */
export const patchUser = async (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Promise<Json> => {
  const operations = parsePatchRequest(body);
  return writeTransaction(app, async (tx) => {
    const row = await requireRow(tx, id, forUpdate(tx));
    checkIfMatch(ifMatch, row.version);
    const patched = applyPatch('User', await toWire(tx, row, baseUrl), operations);
    return toWire(tx, await storeUser(app, tx, row, normalizeResource('User', patched)), baseUrl);
  });
};

/** Deletes a user permanently; their SSO sessions and API keys are revoked and memberships removed. */
export const deleteUser = async (app: App, id: string, ifMatch?: string): Promise<void> =>
  writeTransaction(app, async (tx) => {
    const row = await requireRow(tx, id, forUpdate(tx));
    checkIfMatch(ifMatch, row.version);
    await revokeSessionsOfUser(tx, app.now().toISOString(), id);
    await revokeKeysOfUser(app, id, tx);
    await writeUserIndex(tx, row.uid, undefined);
    await tx.run('DELETE FROM scim_users WHERE id = ?', [id]);
  });

const indexSql: Readonly<Record<'id' | 'userName' | 'externalId', string>> = {
  id: `SELECT ${userColumns} FROM scim_users WHERE id = ?`,
  userName: `SELECT ${userColumns} FROM scim_users WHERE user_name_key = ?`,
  externalId: `SELECT ${userColumns} FROM scim_users WHERE external_id = ? ORDER BY uid`,
};

/** The rows of the given uids, in uid order, read in chunks below SQLite's parameter limit. */
const rowsByUid = async (db: Queryable, uids: readonly number[]): Promise<UserRow[]> => {
  const rows: UserRow[] = [];
  for (let start = 0; start < uids.length; start += 500) {
    const chunk = uids.slice(start, start + 500);
    rows.push(
      ...(await db.all(
        userRowSchema,
        `SELECT ${userColumns} FROM scim_users WHERE uid IN (${chunk.map(() => '?').join(',')}) ORDER BY uid`,
        chunk,
      )),
    );
  }
  return rows;
};

/** A page of user rows as wire resources, with their group references read for just that page. */
const pageToWire = async (db: Queryable, rows: readonly UserRow[], baseUrl: string): Promise<Json[]> => {
  const groups = await groupsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => userToWire(row, groups.get(row.id) ?? [], baseUrl));
};

const countRow = z.object({ n: z.number().int() });

/**
 * Lists users (RFC 7644 3.4.2) in creation order. Without a filter, SQL pages directly; a filter over indexed
 * attributes (all but `groups`, `meta.location` and `password`) is evaluated on the attribute index and only the
 * page is read, unless an `id`/`userName` equality picks its one candidate by index. Otherwise an
 * `id`/`userName`/`externalId` equality picks candidates by index, and the rest of the filter is evaluated over
 * those (or every) user.
 */
export const listUsers = async (app: App, query: ListQuery, baseUrl: string): Promise<ResourcePage> => {
  const db = app.database;
  const filter = prepareFilter('User', query.filter);
  const sorted = query.sortBy !== undefined && query.sortBy !== '';
  const { startIndex, count } = pageParams(query);
  if (filter === undefined && !sorted) {
    // The count and the page at once (PostgreSQL: two connections). The page's OFFSET skips uids in the uid
    // index (index-only) and reads just its rows: `ORDER BY uid LIMIT ? OFFSET ?` on the table fetched every
    // skipped row (PostgreSQL, startIndex 50,000: 50k heap tuples of ~1 KB).
    const [total, rows] = await Promise.all([
      db.one(countRow, 'SELECT COUNT(*) AS n FROM scim_users'),
      db.all(
        userRowSchema,
        `SELECT ${userColumns} FROM scim_users WHERE uid IN (SELECT uid FROM scim_users ORDER BY uid LIMIT ${boundLimit} OFFSET ?) ORDER BY uid`,
        [count, startIndex - 1],
      ),
    ]);
    return { totalResults: total?.n ?? 0, startIndex, resources: await pageToWire(db, rows, baseUrl) };
  }
  const key = filter?.indexKey;
  // An `id` or `userName` equality (alone or in a top-level `and`) has at most one candidate: reading it by its
  // unique index and checking the whole filter in JS is two statements (PostgreSQL: two round trips), where the
  // index plan takes four (MAX(uid), the leaf, the page, the groups).
  const matches =
    key !== undefined && key.attr !== 'externalId'
      ? undefined
      : await filter?.indexed?.(db, sorted ? 0 : startIndex - 1, sorted ? Number.MAX_SAFE_INTEGER : count);
  if (matches !== undefined && !sorted) {
    return { totalResults: matches.total, startIndex, resources: await pageToWire(db, await rowsByUid(db, matches.uids), baseUrl) };
  }
  const rows =
    matches !== undefined
      ? await rowsByUid(db, matches.uids)
      : key === undefined
        ? await db.all(userRowSchema, `SELECT ${userColumns} FROM scim_users ORDER BY uid`)
        : await db.all(userRowSchema, indexSql[key.attr], [key.attr === 'userName' ? userNameKey(key.value) : key.value]);
  const resources = await pageToWire(db, rows, baseUrl);
  return pageOf(
    sortResources('User', matches === undefined && filter !== undefined ? resources.filter(filter.predicate) : resources, query),
    query,
  );
};
