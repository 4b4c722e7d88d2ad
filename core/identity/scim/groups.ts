import type { App } from '../../app.ts';
import { notFound, scimError } from './errors.ts';
import { pageOf, prepareFilter, sortResources } from './list.ts';
import { type Json, normalizeResource } from './normalize.ts';
import { applyPatch, parsePatchRequest } from './patch.ts';
import type { ListQuery, ResourcePage } from './types.ts';
import { type GroupRow, groupToWire, type MemberRef } from './wire.ts';
import { checkIfMatch, sql, writeTransaction } from './write.ts';
import { newId } from './ids.ts';

const rowById = (app: App, id: string): GroupRow | undefined =>
  sql(app, 'SELECT * FROM scim_groups WHERE id = ?').get(id) as GroupRow | undefined;

const requireRow = (app: App, id: string): GroupRow => {
  const row = rowById(app, id);
  if (row === undefined) throw notFound('Group', id);
  return row;
};

const membersOf = (app: App, groupId: string): MemberRef[] =>
  (
    sql(
      app,
      'SELECT u.id, u.user_name FROM scim_group_members m JOIN scim_users u ON u.id = m.user_id WHERE m.group_id = ? ORDER BY u.id',
    ).all(groupId) as { id: string; user_name: string }[]
  ).map((row) => ({ id: row.id, userName: row.user_name }));

const toWire = (app: App, row: GroupRow, baseUrl: string): Json => groupToWire(row, membersOf(app, row.id), baseUrl);

/** Splits a normalized group into its stored document and its member ids, checking every member is a known user. */
const splitMembers = (app: App, resource: Json): { stored: Json; memberIds: string[] } => {
  const { members, ...stored } = resource;
  const memberIds: string[] = [];
  for (const member of (members as Json[] | undefined) ?? []) {
    const id = member['value'];
    if (typeof id !== 'string') throw scimError('invalidValue', 'Every member needs a value (the user id)');
    if (typeof member['type'] === 'string' && member['type'].toLowerCase() !== 'user') {
      throw scimError('invalidValue', 'Only users can be group members; nested groups are not supported');
    }
    if (sql(app, 'SELECT 1 FROM scim_users WHERE id = ?').get(id) === undefined) {
      throw scimError('invalidValue', `Member ${id.slice(0, 100)} is not a known user`);
    }
    if (!memberIds.includes(id)) memberIds.push(id);
  }
  return { stored, memberIds };
};

const setMembers = (app: App, groupId: string, memberIds: readonly string[]): void => {
  sql(app, 'DELETE FROM scim_group_members WHERE group_id = ?').run(groupId);
  const insert = sql(app, 'INSERT INTO scim_group_members (group_id, user_id) VALUES (?, ?)');
  for (const userId of memberIds) insert.run(groupId, userId);
};

/** Creates a group (with members) in one transaction. Group displayNames need not be unique (RFC 7643 4.2). */
export const createGroup = (app: App, body: unknown, baseUrl: string): Json => {
  const resource = normalizeResource('Group', body);
  return writeTransaction(app, () => {
    const { stored, memberIds } = splitMembers(app, resource);
    const id = newId(app, 'scim-group-');
    const now = app.now().toISOString();
    sql(
      app,
      `INSERT INTO scim_groups (id, display_name, external_id, resource, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)`,
    ).run(id, stored['displayName'], stored['externalId'] ?? null, JSON.stringify(stored), now, now);
    setMembers(app, id, memberIds);
    return toWire(app, requireRow(app, id), baseUrl);
  });
};

export const getGroup = (app: App, id: string, baseUrl: string): Json => toWire(app, requireRow(app, id), baseUrl);

/** Writes a new group state in the caller's transaction; the version moves only when something changed. */
const storeGroup = (app: App, row: GroupRow, next: Json): GroupRow => {
  const { stored, memberIds } = splitMembers(app, next);
  const before = membersOf(app, row.id).map((member) => member.id);
  const serialized = JSON.stringify(stored);
  const sameMembers = before.length === memberIds.length && [...memberIds].sort().every((id, index) => id === before[index]);
  if (serialized === row.resource && sameMembers) return row;
  sql(
    app,
    'UPDATE scim_groups SET display_name = ?, external_id = ?, resource = ?, version = version + 1, updated_at = ? WHERE id = ?',
  ).run(stored['displayName'], stored['externalId'] ?? null, serialized, app.now().toISOString(), row.id);
  if (!sameMembers) setMembers(app, row.id, memberIds);
  return requireRow(app, row.id);
};

export const replaceGroup = (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Json => {
  const next = normalizeResource('Group', body);
  return writeTransaction(app, () => {
    const row = requireRow(app, id);
    checkIfMatch(ifMatch, row.version);
    return toWire(app, storeGroup(app, row, next), baseUrl);
  });
};

/** PATCH a group; Okta and Entra push membership this way (`members` add/remove, value filters). */
export const patchGroup = (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Json => {
  const operations = parsePatchRequest(body);
  return writeTransaction(app, () => {
    const row = requireRow(app, id);
    checkIfMatch(ifMatch, row.version);
    const patched = applyPatch('Group', toWire(app, row, baseUrl), operations);
    return toWire(app, storeGroup(app, row, normalizeResource('Group', patched)), baseUrl);
  });
};

/** Deletes a group; its member users stay (spec 3). */
export const deleteGroup = (app: App, id: string, ifMatch?: string): void =>
  writeTransaction(app, () => {
    checkIfMatch(ifMatch, requireRow(app, id).version);
    sql(app, 'DELETE FROM scim_groups WHERE id = ?').run(id);
  });

/** Lists groups with filter, sort and paging; groups are few, so filters are evaluated in memory. */
export const listGroups = (app: App, query: ListQuery, baseUrl: string): ResourcePage => {
  const filter = prepareFilter('Group', query.filter);
  const matches: Json[] = [];
  for (const row of sql(app, 'SELECT * FROM scim_groups ORDER BY id').all() as Iterable<GroupRow>) {
    const resource = toWire(app, row, baseUrl);
    if (filter === undefined || filter.predicate(resource)) matches.push(resource);
  }
  return pageOf(sortResources('Group', matches, query), query);
};
