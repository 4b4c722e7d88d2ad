import type { App } from '../../app.ts';
import { revokeKeysOfUser } from '../api-keys/service.ts';
import { revokeSessionsOfUser } from '../sso/sessions.ts';
import { notFound } from './errors.ts';
import { pageOf, pageParams, prepareFilter, sortResources } from './list.ts';
import { type Json, normalizeResource } from './normalize.ts';
import { applyPatch, parsePatchRequest } from './patch.ts';
import type { ListQuery, ResourcePage } from './types.ts';
import { type GroupRef, type UserRow, userToWire } from './wire.ts';
import { checkIfMatch, sql, uniqueUserName, writeTransaction } from './write.ts';
import { newId } from './ids.ts';
import { writeUserIndex } from './filter/attr-index.ts';

/** userName is caseExact false (RFC 7643 4.1.1): its key folds case, and the UNIQUE index on it enforces that. */
export const userNameKey = (userName: string): string => userName.toLowerCase();

const rowById = (app: App, id: string): UserRow | undefined =>
  sql(app, 'SELECT * FROM scim_users WHERE id = ?').get(id) as UserRow | undefined;

const requireRow = (app: App, id: string): UserRow => {
  const row = rowById(app, id);
  if (row === undefined) throw notFound('User', id);
  return row;
};

/** Group references of the given users (or of all users), keyed by user id. */
const groupsOf = (app: App, userIds?: readonly string[]): Map<string, GroupRef[]> => {
  const text = `SELECT m.user_id, g.id, g.display_name FROM scim_group_members m JOIN scim_groups g ON g.id = m.group_id
    ${userIds === undefined ? '' : `WHERE m.user_id IN (${userIds.map(() => '?').join(',') || "''"})`} ORDER BY g.id`;
  const map = new Map<string, GroupRef[]>();
  for (const row of sql(app, text).all(...(userIds ?? [])) as Iterable<{ user_id: string; id: string; display_name: string }>) {
    const list = map.get(row.user_id) ?? [];
    list.push({ id: row.id, displayName: row.display_name });
    map.set(row.user_id, list);
  }
  return map;
};

const toWire = (app: App, row: UserRow, baseUrl: string): Json => userToWire(row, groupsOf(app, [row.id]).get(row.id) ?? [], baseUrl);

/** Brings the row's filter index up to date (in the caller's write transaction) and returns the row. */
const indexed = (app: App, row: UserRow): UserRow => {
  writeUserIndex(app.db, row.uid, userToWire(row, [], ''));
  return row;
};

const columnsOf = (resource: Json): { userName: string; externalId: string | null; active: number } => ({
  userName: resource['userName'] as string,
  externalId: typeof resource['externalId'] === 'string' ? resource['externalId'] : null,
  active: resource['active'] === false ? 0 : 1,
});

/** Creates a user from an RFC 7643 User body; 409 uniqueness when the userName exists in any letter case. */
export const createUser = (app: App, body: unknown, baseUrl: string): Json => {
  const resource = normalizeResource('User', body);
  if (resource['active'] === undefined) resource['active'] = true;
  const { userName, externalId, active } = columnsOf(resource);
  const id = newId(app, 'scim-user-');
  const now = app.now().toISOString();
  const row = writeTransaction(app, () => {
    uniqueUserName(() =>
      sql(
        app,
        `INSERT INTO scim_users (id, uid, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at)
           VALUES (?, (SELECT COALESCE(MAX(uid), 0) + 1 FROM scim_users), ?, ?, ?, ?, ?, 1, ?, ?)`,
      ).run(id, userName, userNameKey(userName), externalId, active, JSON.stringify(resource), now, now),
    );
    return indexed(app, requireRow(app, id));
  });
  return toWire(app, row, baseUrl);
};

export const getUser = (app: App, id: string, baseUrl: string): Json => toWire(app, requireRow(app, id), baseUrl);

/**
 * Stores a new state of a user (PUT or PATCH result) in the caller's transaction: bumps the version when
 * anything changed, and on deactivation revokes the user's SSO sessions and API keys in the same transaction.
 */
const storeUser = (app: App, row: UserRow, next: Json): UserRow => {
  if (next['active'] === undefined) next['active'] = row.active === 1;
  const serialized = JSON.stringify(next);
  if (serialized === row.resource) return row;
  const { userName, externalId, active } = columnsOf(next);
  uniqueUserName(() =>
    sql(
      app,
      `UPDATE scim_users SET user_name = ?, user_name_key = ?, external_id = ?, active = ?, resource = ?,
         version = version + 1, updated_at = ? WHERE id = ?`,
    ).run(userName, userNameKey(userName), externalId, active, serialized, app.now().toISOString(), row.id),
  );
  if (row.active === 1 && active === 0) {
    const sessions = revokeSessionsOfUser(app, row.id);
    const keys = revokeKeysOfUser(app, row.id);
    app.log.info({ userId: row.id, sessions, keys }, 'scim user deactivated; sessions and keys revoked');
  }
  return indexed(app, requireRow(app, row.id));
};

/** PUT: replaces every writable attribute (RFC 7644 3.5.1); readOnly ones in the body are ignored. */
export const replaceUser = (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Json => {
  const next = normalizeResource('User', body);
  return writeTransaction(app, () => {
    const row = requireRow(app, id);
    checkIfMatch(ifMatch, row.version);
    return toWire(app, storeUser(app, row, next), baseUrl);
  });
};

/** PATCH (RFC 7644 3.5.2): all operations apply or none do. */
export const patchUser = (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Json => {
  const operations = parsePatchRequest(body);
  return writeTransaction(app, () => {
    const row = requireRow(app, id);
    checkIfMatch(ifMatch, row.version);
    const patched = applyPatch('User', toWire(app, row, baseUrl), operations);
    return toWire(app, storeUser(app, row, normalizeResource('User', patched)), baseUrl);
  });
};

/** Deletes a user permanently; their SSO sessions and API keys are revoked and memberships removed. */
export const deleteUser = (app: App, id: string, ifMatch?: string): void =>
  writeTransaction(app, () => {
    const row = requireRow(app, id);
    checkIfMatch(ifMatch, row.version);
    revokeSessionsOfUser(app, id);
    revokeKeysOfUser(app, id);
    writeUserIndex(app.db, row.uid, undefined);
    sql(app, 'DELETE FROM scim_users WHERE id = ?').run(id);
  });

const indexSql: Readonly<Record<'id' | 'userName' | 'externalId', string>> = {
  id: 'SELECT * FROM scim_users WHERE id = ?',
  userName: 'SELECT * FROM scim_users WHERE user_name_key = ?',
  externalId: 'SELECT * FROM scim_users WHERE external_id = ? ORDER BY uid',
};

/** The rows of the given uids, in uid order, read in chunks below SQLite's parameter limit. */
const rowsByUid = (app: App, uids: readonly number[]): UserRow[] => {
  const rows: UserRow[] = [];
  for (let start = 0; start < uids.length; start += 500) {
    const chunk = uids.slice(start, start + 500);
    rows.push(
      ...(app.db
        .prepare(`SELECT * FROM scim_users WHERE uid IN (${chunk.map(() => '?').join(',')}) ORDER BY uid`)
        .all(...chunk) as UserRow[]),
    );
  }
  return rows;
};

/** A page of user rows as wire resources, with their group references read for just that page. */
const pageToWire = (app: App, rows: readonly UserRow[], baseUrl: string): Json[] => {
  const groups = groupsOf(
    app,
    rows.map((row) => row.id),
  );
  return rows.map((row) => userToWire(row, groups.get(row.id) ?? [], baseUrl));
};

/**
 * Lists users (RFC 7644 3.4.2) in creation order. Without a filter, SQL pages directly; a filter over indexed
 * attributes (all but `groups`, `meta.location` and `password`) is evaluated on the attribute index and only the
 * page is read. Otherwise an `id`/`userName`/`externalId` equality picks candidates by index, and the rest of the
 * filter is evaluated over those (or every) user.
 */
export const listUsers = (app: App, query: ListQuery, baseUrl: string): ResourcePage => {
  const filter = prepareFilter('User', query.filter);
  const sorted = query.sortBy !== undefined && query.sortBy !== '';
  const { startIndex, count } = pageParams(query);
  if (filter === undefined && !sorted) {
    const total = (sql(app, 'SELECT COUNT(*) AS n FROM scim_users').get() as { n: number }).n;
    const rows = sql(app, 'SELECT * FROM scim_users ORDER BY uid LIMIT ? OFFSET ?').all(count, startIndex - 1) as UserRow[];
    return { totalResults: total, startIndex, resources: pageToWire(app, rows, baseUrl) };
  }
  const matches = filter?.indexed?.(app);
  if (matches !== undefined && !sorted) {
    return {
      totalResults: matches.count(),
      startIndex,
      resources: pageToWire(app, rowsByUid(app, matches.slice(startIndex - 1, count)), baseUrl),
    };
  }
  const key = filter?.indexKey;
  const rows = (
    matches !== undefined
      ? rowsByUid(app, matches.slice(0, Number.MAX_SAFE_INTEGER))
      : key === undefined
        ? sql(app, 'SELECT * FROM scim_users ORDER BY uid').all()
        : sql(app, indexSql[key.attr]).all(key.attr === 'userName' ? userNameKey(key.value) : key.value)
  ) as UserRow[];
  const resources = pageToWire(app, rows, baseUrl);
  return pageOf(
    sortResources('User', matches === undefined && filter !== undefined ? resources.filter(filter.predicate) : resources, query),
    query,
  );
};
