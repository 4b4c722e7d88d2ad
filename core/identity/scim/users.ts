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
  uniqueUserName(() =>
    sql(
      app,
      `INSERT INTO scim_users (id, user_name, user_name_key, external_id, active, resource, version, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    ).run(id, userName, userNameKey(userName), externalId, active, JSON.stringify(resource), now, now),
  );
  return toWire(app, requireRow(app, id), baseUrl);
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
  return requireRow(app, row.id);
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
    sql(app, 'DELETE FROM scim_users WHERE id = ?').run(id);
  });

const indexSql: Readonly<Record<'id' | 'userName' | 'externalId', string>> = {
  id: 'SELECT * FROM scim_users WHERE id = ?',
  userName: 'SELECT * FROM scim_users WHERE user_name_key = ?',
  externalId: 'SELECT * FROM scim_users WHERE external_id = ? ORDER BY id',
};

/**
 * Lists users (RFC 7644 3.4.2). Without a filter or sort, SQL pages directly; an `id`/`userName`/`externalId`
 * equality uses its index to pick candidates; any other filter is evaluated over every user.
 */
export const listUsers = (app: App, query: ListQuery, baseUrl: string): ResourcePage => {
  const filter = prepareFilter('User', query.filter);
  const sorted = query.sortBy !== undefined && query.sortBy !== '';
  if (filter === undefined && !sorted) {
    const { startIndex, count } = pageParams(query);
    const total = (sql(app, 'SELECT COUNT(*) AS n FROM scim_users').get() as { n: number }).n;
    const rows = sql(app, 'SELECT * FROM scim_users ORDER BY id LIMIT ? OFFSET ?').all(count, startIndex - 1) as UserRow[];
    const groups = groupsOf(
      app,
      rows.map((row) => row.id),
    );
    return { totalResults: total, startIndex, resources: rows.map((row) => userToWire(row, groups.get(row.id) ?? [], baseUrl)) };
  }
  const key = filter?.indexKey;
  const rows = (
    key === undefined
      ? sql(app, 'SELECT * FROM scim_users ORDER BY id').all()
      : sql(app, indexSql[key.attr]).all(key.attr === 'userName' ? userNameKey(key.value) : key.value)
  ) as Iterable<UserRow>;
  const groups = key === undefined ? groupsOf(app) : undefined;
  const matches: Json[] = [];
  for (const row of rows) {
    const resource = userToWire(
      row,
      groups === undefined ? (groupsOf(app, [row.id]).get(row.id) ?? []) : (groups.get(row.id) ?? []),
      baseUrl,
    );
    if (filter === undefined || filter.predicate(resource)) matches.push(resource);
  }
  return pageOf(sortResources('User', matches, query), query);
};
