import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Queryable } from '../../store/database.ts';
import { notFound, scimError } from './errors.ts';
import { newId } from './ids.ts';
import { pageOf, prepareFilter, sortResources } from './list.ts';
import { type Json, normalizeResource } from './normalize.ts';
import { applyPatch, parsePatchRequest } from './patch.ts';
import type { ListQuery, ResourcePage } from './types.ts';
import { type GroupRow, groupRowSchema, groupToWire, type MemberRef } from './wire.ts';
import { checkIfMatch, forUpdate, writeTransaction } from './write.ts';

const groupColumns = 'id, display_name, external_id, resource, version, created_at, updated_at';

const requireRow = async (db: Queryable, id: string, lock = ''): Promise<GroupRow> => {
  const row = await db.one(groupRowSchema, `SELECT ${groupColumns} FROM scim_groups WHERE id = ?${lock}`, [id]);
  if (row === undefined) throw notFound('Group', id);
  return row;
};

const memberRow = z.object({ id: z.string(), user_name: z.string() });
const found = z.object({ id: z.string() });

const membersOf = async (db: Queryable, groupId: string): Promise<MemberRef[]> =>
  (
    await db.all(
      memberRow,
      'SELECT u.id, u.user_name FROM scim_group_members m JOIN scim_users u ON u.id = m.user_id WHERE m.group_id = ? ORDER BY u.id',
      [groupId],
    )
  ).map((row) => ({ id: row.id, userName: row.user_name }));

const toWire = async (db: Queryable, row: GroupRow, baseUrl: string): Promise<Json> =>
  groupToWire(row, await membersOf(db, row.id), baseUrl);

/** Splits a normalized group into its stored document and its member ids, checking every member is a known user. */
const splitMembers = async (tx: Queryable, resource: Json): Promise<{ stored: Json; memberIds: string[] }> => {
  const { members, ...stored } = resource;
  const memberIds: string[] = [];
  for (const member of (members as Json[] | undefined) ?? []) {
    const id = member['value'];
    if (typeof id !== 'string') throw scimError('invalidValue', 'Every member needs a value (the user id)');
    if (typeof member['type'] === 'string' && member['type'].toLowerCase() !== 'user') {
      throw scimError('invalidValue', 'Only users can be group members; nested groups are not supported');
    }
    if ((await tx.one(found, 'SELECT id FROM scim_users WHERE id = ?', [id])) === undefined) {
      throw scimError('invalidValue', `Member ${id.slice(0, 100)} is not a known user`);
    }
    if (!memberIds.includes(id)) memberIds.push(id);
  }
  return { stored, memberIds };
};

const setMembers = async (tx: Queryable, groupId: string, memberIds: readonly string[]): Promise<void> => {
  await tx.run('DELETE FROM scim_group_members WHERE group_id = ?', [groupId]);
  for (const userId of memberIds) await tx.run('INSERT INTO scim_group_members (group_id, user_id) VALUES (?, ?)', [groupId, userId]);
};

const externalIdOf = (stored: Json): string | null => (typeof stored['externalId'] === 'string' ? stored['externalId'] : null);

/** Creates a group (with members) in one transaction. Group displayNames need not be unique (RFC 7643 4.2). */
export const createGroup = async (app: App, body: unknown, baseUrl: string): Promise<Json> => {
  const resource = normalizeResource('Group', body);
  const id = newId(app, 'scim-group-');
  const now = app.now().toISOString();
  return writeTransaction(app, async (tx) => {
    const { stored, memberIds } = await splitMembers(tx, resource);
    await tx.run(
      'INSERT INTO scim_groups (id, display_name, external_id, resource, version, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
      [id, stored['displayName'] as string, externalIdOf(stored), JSON.stringify(stored), now, now],
    );
    await setMembers(tx, id, memberIds);
    return toWire(tx, await requireRow(tx, id), baseUrl);
  });
};

export const getGroup = async (app: App, id: string, baseUrl: string): Promise<Json> =>
  toWire(app.database, await requireRow(app.database, id), baseUrl);

/** Writes a new group state in the caller's transaction; the version moves only when something changed. */
const storeGroup = async (app: App, tx: Queryable, row: GroupRow, next: Json): Promise<GroupRow> => {
  const { stored, memberIds } = await splitMembers(tx, next);
  const before = (await membersOf(tx, row.id)).map((member) => member.id);
  const serialized = JSON.stringify(stored);
  const sameMembers = before.length === memberIds.length && [...memberIds].sort().every((id, index) => id === before[index]);
  if (serialized === row.resource && sameMembers) return row;
  await tx.run(
    'UPDATE scim_groups SET display_name = ?, external_id = ?, resource = ?, version = version + 1, updated_at = ? WHERE id = ?',
    [stored['displayName'] as string, externalIdOf(stored), serialized, app.now().toISOString(), row.id],
  );
  if (!sameMembers) await setMembers(tx, row.id, memberIds);
  return requireRow(tx, row.id);
};

export const replaceGroup = async (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Promise<Json> => {
  const next = normalizeResource('Group', body);
  return writeTransaction(app, async (tx) => {
    const row = await requireRow(tx, id, forUpdate(tx));
    checkIfMatch(ifMatch, row.version);
    return toWire(tx, await storeGroup(app, tx, row, next), baseUrl);
  });
};

/** PATCH a group; Okta and Entra push membership this way (`members` add/remove, value filters). */
export const patchGroup = async (app: App, id: string, body: unknown, baseUrl: string, ifMatch?: string): Promise<Json> => {
  const operations = parsePatchRequest(body);
  return writeTransaction(app, async (tx) => {
    const row = await requireRow(tx, id, forUpdate(tx));
    checkIfMatch(ifMatch, row.version);
    const patched = applyPatch('Group', await toWire(tx, row, baseUrl), operations);
    return toWire(tx, await storeGroup(app, tx, row, normalizeResource('Group', patched)), baseUrl);
  });
};

/** Deletes a group; its member users stay (spec 3). */
export const deleteGroup = async (app: App, id: string, ifMatch?: string): Promise<void> =>
  writeTransaction(app, async (tx) => {
    checkIfMatch(ifMatch, (await requireRow(tx, id, forUpdate(tx))).version);
    await tx.run('DELETE FROM scim_groups WHERE id = ?', [id]);
  });

/** Lists groups with filter, sort and paging; groups are few, so filters are evaluated in memory. */
export const listGroups = async (app: App, query: ListQuery, baseUrl: string): Promise<ResourcePage> => {
  const filter = prepareFilter('Group', query.filter);
  const matches: Json[] = [];
  for (const row of await app.database.all(groupRowSchema, `SELECT ${groupColumns} FROM scim_groups ORDER BY id`)) {
    const resource = await toWire(app.database, row, baseUrl);
    if (filter === undefined || filter.predicate(resource)) matches.push(resource);
  }
  return pageOf(sortResources('Group', matches, query), query);
};
