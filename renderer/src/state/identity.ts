import { create } from 'zustand';
import { type OpOutput, type Transport, transport } from '../transport/index.ts';
import { messageOf, opCaller } from './call.ts';

type UserPage = OpOutput<'identity.scimListUsers'>;
export type DirectoryUser = UserPage['resources'][number];
export type DirectoryGroup = OpOutput<'identity.scimListGroups'>['resources'][number];
export type SsoSessionRow = OpOutput<'identity.ssoListSessions'>[number];

export const usersPerPage = 25;

type DirectoryState = {
  readonly users: readonly DirectoryUser[];
  readonly total: number;
  readonly startIndex: number;
  readonly filter: string;
  readonly groups: readonly DirectoryGroup[];
  readonly loading: boolean;
  readonly error: string | null;
  readonly message: string | null;
  load(filter?: string, startIndex?: number): Promise<void>;
  createUser(input: { userName: string; displayName: string; email: string }): Promise<void>;
  setActive(user: DirectoryUser, active: boolean): Promise<void>;
  deleteUser(user: DirectoryUser): Promise<void>;
  createGroup(displayName: string): Promise<void>;
  deleteGroup(group: DirectoryGroup): Promise<void>;
  addMember(groupId: string, userId: string): Promise<void>;
  removeMember(groupId: string, userId: string): Promise<void>;
};

/**
 * SCIM users and groups for the Users & Groups screen; every change reloads the current page.
 * Built over a given Transport (store tests inject a fake); `useDirectory` is the app's.
 */
export const createDirectoryStore = (via: Transport, callOp = opCaller(via)) =>
  create<DirectoryState>((set, get) => {
    const run = async (work: () => Promise<string | null>): Promise<void> => {
      set({ loading: true, error: null, message: null });
      try {
        const message = await work();
        await reload();
        set({ message });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ loading: false });
      }
    };
    const reload = async (): Promise<void> => {
      const { filter, startIndex } = get();
      const [page, groups] = await Promise.all([
        callOp('identity.scimListUsers', { filter_str: filter, start_index: startIndex, count: usersPerPage }),
        callOp('identity.scimListGroups', { count: 100 }),
      ]);
      set({ users: page.resources, total: page.total_results, groups: groups.resources });
    };
    return {
      users: [],
      total: 0,
      startIndex: 1,
      filter: '',
      groups: [],
      loading: false,
      error: null,
      message: null,
      load: (filter = get().filter, startIndex = 1) => {
        set({ filter, startIndex });
        return run(async () => null);
      },
      createUser: ({ userName, displayName, email }) =>
        run(async () => {
          const user = await callOp('identity.scimCreateUser', {
            user_data: {
              userName,
              ...(displayName === '' ? {} : { displayName }),
              ...(email === '' ? {} : { emails: [{ value: email, type: 'work', primary: true }] }),
            },
          });
          return `Created ${user.user_name}`;
        }),
      setActive: (user, active) =>
        run(async () => {
          await callOp('identity.scimPatchUser', { user_id: user.id, patch_ops: [{ op: 'replace', path: 'active', value: active }] });
          return `${active ? 'Reactivated' : 'Deactivated'} ${user.user_name}`;
        }),
      deleteUser: (user) =>
        run(async () => {
          await callOp('identity.scimDeleteUser', { user_id: user.id });
          return `Deleted ${user.user_name}`;
        }),
      createGroup: (displayName) =>
        run(async () => {
          await callOp('identity.scimCreateGroup', { group_data: { displayName } });
          return `Created group ${displayName}`;
        }),
      deleteGroup: (group) =>
        run(async () => {
          await callOp('identity.scimDeleteGroup', { group_id: group.id });
          return `Deleted group ${group.display_name}`;
        }),
      addMember: (groupId, userId) =>
        run(async () => {
          const group = await callOp('identity.scimAddMember', { group_id: groupId, user_id: userId });
          return `Added to ${group.display_name}`;
        }),
      removeMember: (groupId, userId) =>
        run(async () => {
          const group = await callOp('identity.scimRemoveMember', { group_id: groupId, user_id: userId });
          return `Removed from ${group.display_name}`;
        }),
    };
  });

export const useDirectory = createDirectoryStore(transport);

type SessionsState = {
  readonly sessions: readonly SsoSessionRow[];
  readonly includeInactive: boolean;
  readonly loading: boolean;
  readonly error: string | null;
  readonly message: string | null;
  load(includeInactive?: boolean): Promise<void>;
  revokeIdpSession(idpSessionId: string): Promise<void>;
  revokeSession(sessionId: string): Promise<void>;
};

/** Delegated SSO sessions for the SSO Sessions screen. */
/** Built over a given Transport (store tests inject a fake); `useSsoSessions` is the app's. */
export const createSsoSessionsStore = (via: Transport, callOp = opCaller(via)) =>
  create<SessionsState>((set, get) => {
    const run = async (work: () => Promise<string | null>): Promise<void> => {
      set({ loading: true, error: null, message: null });
      try {
        const message = await work();
        set({ sessions: await callOp('identity.ssoListSessions', { include_inactive: get().includeInactive }), message });
      } catch (error) {
        set({ error: messageOf(error) });
      } finally {
        set({ loading: false });
      }
    };
    return {
      sessions: [],
      includeInactive: false,
      loading: false,
      error: null,
      message: null,
      load: (includeInactive = get().includeInactive) => {
        set({ includeInactive });
        return run(async () => null);
      },
      revokeIdpSession: (idpSessionId) =>
        run(async () =>
          (await callOp('identity.ssoRevokeIdpSession', { idp_session_id: idpSessionId }))
            ? `Revoked every session of IdP session ${idpSessionId}`
            : `No live session matched IdP session ${idpSessionId}`,
        ),
      revokeSession: (sessionId) =>
        run(async () =>
          (await callOp('identity.ssoRevokeSession', { session_id: sessionId })) ? `Revoked ${sessionId}` : `${sessionId} was not live`,
        ),
    };
  });

export const useSsoSessions = createSsoSessionsStore(transport);
