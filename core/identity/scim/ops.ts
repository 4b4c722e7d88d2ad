import { z } from 'zod';
import { defineOp } from '../../ops/define.ts';
import { patchOpUrn } from './schema.ts';
import * as scim from './service.ts';

/**
 * SCIM administration for the Users & Groups screen and scripts (spec 4.4 names, snake_case inputs as in the
 * spec). IdPs use the RFC 7644 routes in http.ts; these ops share the same store. Admins, or keys with the scim scope.
 */
const id = (prefix: string) => z.string().trim().min(1).max(100).startsWith(prefix);
const resource = z.record(z.string(), z.unknown());
const position = z.number().int().min(-1_000_000_000).max(1_000_000_000);
/** A SCIM filter and a 1-based page, as the users and the groups lists take them. */
const listInput = z.object({
  filter_str: z.string().max(4096).default(''),
  start_index: position.default(1),
  count: position.default(100),
});
const userId = z.object({ user_id: id('scim-user-') });
const groupId = z.object({ group_id: id('scim-group-') });
const membership = z.object({ group_id: id('scim-group-'), user_id: id('scim-user-') });
/** The RFC 7644 PATCH that adds a user to a group or removes them. */
const memberPatch = (op: 'add' | 'remove', userId: string) => ({
  schemas: [patchOpUrn],
  Operations: [{ op, path: 'members', value: [{ value: userId }] }],
});
const adminRead = { access: 'read', tier: 'admin', scope: 'scim' } as const;
const adminWrite = { access: 'write', tier: 'admin', scope: 'scim' } as const;

export const scimOps = {
  'identity.scimListUsers': defineOp({
    summary: 'List SCIM users matching a SCIM filter (RFC 7644 3.4.2.2), 1-based paging, at most 100 per page',
    input: listInput,
    ...adminRead,
    handler: async (input, { app }) => scim.scimListUsers(app, input.filter_str, input.start_index, input.count),
  }),
  'identity.scimCreateUser': defineOp({
    summary: 'Create a SCIM user from an RFC 7643 User resource',
    input: z.object({ user_data: resource }),
    ...adminWrite,
    handler: async (input, { app }) => scim.scimCreateUser(app, input.user_data),
  }),
  'identity.scimGetUser': defineOp({
    summary: 'Get a SCIM user',
    input: userId,
    ...adminRead,
    handler: async (input, { app }) => scim.scimGetUser(app, input.user_id),
  }),
  'identity.scimPatchUser': defineOp({
    summary: 'Apply RFC 7644 PATCH operations to a user atomically (deactivate: replace active false)',
    input: z.object({ user_id: id('scim-user-'), patch_ops: z.array(resource).min(1).max(1000) }),
    ...adminWrite,
    handler: async (input, { app }) => scim.scimPatchUser(app, input.user_id, input.patch_ops),
  }),
  'identity.scimDeleteUser': defineOp({
    summary: 'Delete a SCIM user permanently; their SSO sessions and API keys are revoked',
    input: userId,
    ...adminWrite,
    handler: async (input, { app }) => {
      await scim.scimDeleteUser(app, input.user_id);
      return { deleted: input.user_id };
    },
  }),
  'identity.scimListGroups': defineOp({
    summary: 'List SCIM groups (optionally filtered), 1-based paging, at most 100 per page',
    input: listInput,
    ...adminRead,
    handler: async (input, { app }) => scim.scimListGroups(app, input.start_index, input.count, input.filter_str),
  }),
  'identity.scimCreateGroup': defineOp({
    summary: 'Create a SCIM group from an RFC 7643 Group resource',
    input: z.object({ group_data: resource }),
    ...adminWrite,
    handler: async (input, { app }) => scim.scimCreateGroup(app, input.group_data),
  }),
  'identity.scimGetGroup': defineOp({
    summary: 'Get a SCIM group with its members',
    input: groupId,
    ...adminRead,
    handler: async (input, { app }) => scim.scimGetGroup(app, input.group_id),
  }),
  'identity.scimDeleteGroup': defineOp({
    summary: 'Delete a SCIM group; member users are kept',
    input: groupId,
    ...adminWrite,
    handler: async (input, { app }) => {
      await scim.scimDeleteGroup(app, input.group_id);
      return { deleted: input.group_id };
    },
  }),
  'identity.scimAddMember': defineOp({
    summary: 'Add a user to a group',
    input: membership,
    ...adminWrite,
    handler: async (input, { app }) => scim.scimPatchGroup(app, input.group_id, memberPatch('add', input.user_id)),
  }),
  'identity.scimRemoveMember': defineOp({
    summary: 'Remove a user from a group',
    input: membership,
    ...adminWrite,
    handler: async (input, { app }) => scim.scimPatchGroup(app, input.group_id, memberPatch('remove', input.user_id)),
  }),
} as const;
