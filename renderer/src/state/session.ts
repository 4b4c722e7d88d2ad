import { create } from 'zustand';
import { transport } from '../transport/index.ts';
import type { SessionInfo, Transport } from '../transport/transport.ts';

export type { SessionInfo };

type SessionState = {
  readonly status: 'loading' | 'ready';
  readonly session: SessionInfo | null;
  readonly error: string | null;
  load(): Promise<void>;
  loginWithKey(apiKey: string): Promise<void>;
  logout(): Promise<void>;
};

/** True in the Electron app (IPC transport), false in a browser. */
export const isDesktop = transport.kind === 'ipc';

/** Who is signed in, through the given Transport (in Electron the local user always is; in a browser the cookie decides). */
export const createSessionStore = (via: Transport) =>
  create<SessionState>((set, get) => ({
    status: 'loading',
    session: null,
    error: null,
    load: async () => {
      try {
        set({ status: 'ready', session: await via.session.current(), error: null });
      } catch {
        set({ status: 'ready', session: null, error: 'Cannot reach the workbench server' });
      }
    },
    loginWithKey: async (apiKey) => {
      if (!(await via.session.loginWithKey(apiKey))) {
        set({ error: 'That API key is not valid (unknown, revoked or expired).' });
        return;
      }
      set({ error: null });
      await get().load();
    },
    logout: async () => {
      await via.session.logout();
      await get().load();
    },
  }));

export const useSession = createSessionStore(transport);
