import type { App } from '../../app.ts';
import { scimBaseUrl } from './base-url.ts';
import { createGroup, deleteGroup, getGroup, listGroups, patchGroup } from './groups.ts';
import type { Json } from './normalize.ts';
import type { ResourcePage, SCIMGroup, SCIMListResponse, SCIMUser } from './types.ts';
import { createUser, deleteUser, getUser, listUsers, patchUser } from './users.ts';
import { groupRecord, userRecord } from './wire.ts';

/** The SDK operations of spec 4.4 over the same store the SCIM HTTP server uses, returning spec 2.5 records. */
const listResponse = <T>(page: ResourcePage, toRecord: (resource: Json) => T): SCIMListResponse<T> => ({
  total_results: page.totalResults,
  start_index: page.startIndex,
  items_per_page: page.resources.length,
  resources: page.resources.map(toRecord),
});

/** Users matching a SCIM filter (empty = all), 1-based `startIndex`, `count` clamped to 0..100. */
export const scimListUsers = async (app: App, filterStr = '', startIndex = 1, count = 100): Promise<SCIMListResponse<SCIMUser>> =>
  listResponse(await listUsers(app, { filter: filterStr, startIndex, count }, scimBaseUrl(app)), userRecord);

/** Creates a user from an RFC 7643 User resource; SFIdentityError (409 uniqueness) when the userName exists. */
export const scimCreateUser = async (app: App, userData: unknown): Promise<SCIMUser> =>
  userRecord(await createUser(app, userData, scimBaseUrl(app)));

/** SFIdentityError (NOT_FOUND) when unknown. */
export const scimGetUser = async (app: App, userId: string): Promise<SCIMUser> => userRecord(await getUser(app, userId, scimBaseUrl(app)));

/** Applies RFC 7644 3.5.2 operations (a list, or a whole PatchOp message) atomically. */
export const scimPatchUser = async (app: App, userId: string, patchOps: unknown): Promise<SCIMUser> =>
  userRecord(await patchUser(app, userId, patchOps, scimBaseUrl(app)));

/** Deletes permanently; the user's SSO sessions and API keys are revoked. */
export const scimDeleteUser = (app: App, userId: string): Promise<void> => deleteUser(app, userId);

export const scimListGroups = async (app: App, startIndex = 1, count = 100, filterStr = ''): Promise<SCIMListResponse<SCIMGroup>> =>
  listResponse(await listGroups(app, { filter: filterStr, startIndex, count }, scimBaseUrl(app)), groupRecord);

export const scimCreateGroup = async (app: App, groupData: unknown): Promise<SCIMGroup> =>
  groupRecord(await createGroup(app, groupData, scimBaseUrl(app)));

export const scimGetGroup = async (app: App, groupId: string): Promise<SCIMGroup> =>
  groupRecord(await getGroup(app, groupId, scimBaseUrl(app)));

export const scimPatchGroup = async (app: App, groupId: string, patchOps: unknown): Promise<SCIMGroup> =>
  groupRecord(await patchGroup(app, groupId, patchOps, scimBaseUrl(app)));

/** Deletes a group; its members remain users. */
export const scimDeleteGroup = (app: App, groupId: string): Promise<void> => deleteGroup(app, groupId);
