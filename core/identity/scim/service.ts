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
export const scimListUsers = (app: App, filterStr = '', startIndex = 1, count = 100): SCIMListResponse<SCIMUser> =>
  listResponse(listUsers(app, { filter: filterStr, startIndex, count }, scimBaseUrl(app)), userRecord);

/** Creates a user from an RFC 7643 User resource; SFIdentityError (409 uniqueness) when the userName exists. */
export const scimCreateUser = (app: App, userData: unknown): SCIMUser => userRecord(createUser(app, userData, scimBaseUrl(app)));

/** SFIdentityError (NOT_FOUND) when unknown. */
export const scimGetUser = (app: App, userId: string): SCIMUser => userRecord(getUser(app, userId, scimBaseUrl(app)));

/** Applies RFC 7644 3.5.2 operations (a list, or a whole PatchOp message) atomically. */
export const scimPatchUser = (app: App, userId: string, patchOps: unknown): SCIMUser =>
  userRecord(patchUser(app, userId, patchOps, scimBaseUrl(app)));

/** Deletes permanently; the user's SSO sessions and API keys are revoked. */
export const scimDeleteUser = (app: App, userId: string): void => deleteUser(app, userId);

export const scimListGroups = (app: App, startIndex = 1, count = 100, filterStr = ''): SCIMListResponse<SCIMGroup> =>
  listResponse(listGroups(app, { filter: filterStr, startIndex, count }, scimBaseUrl(app)), groupRecord);

export const scimCreateGroup = (app: App, groupData: unknown): SCIMGroup => groupRecord(createGroup(app, groupData, scimBaseUrl(app)));

export const scimGetGroup = (app: App, groupId: string): SCIMGroup => groupRecord(getGroup(app, groupId, scimBaseUrl(app)));

export const scimPatchGroup = (app: App, groupId: string, patchOps: unknown): SCIMGroup =>
  groupRecord(patchGroup(app, groupId, patchOps, scimBaseUrl(app)));

/** Deletes a group; its members remain users. */
export const scimDeleteGroup = (app: App, groupId: string): void => deleteGroup(app, groupId);
