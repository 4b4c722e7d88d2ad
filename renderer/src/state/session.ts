import { create } from 'zustand';
import { transport } from '../transport/index.ts';

export type SessionInfo = {
  readonly authenticated: boolean;
  readonly subject: string;
  readonly tier: string;
  readonly sso: { readonly required: string; readonly saml: boolean; readonly oidc: boolean };
};

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

const desktopSession: SessionInfo = {
  authenticated: true,
  subject: 'desktop user',
  tier: 'admin',
  sso: { required: 'off', saml: false, oidc: false },
};

/** Who is signed in. In Electron the local user always is; in a browser the session cookie decides. */
export const useSession = create<SessionState>((set, get) => ({
  status: 'loading',
  session: null,
  error: null,
  load: async () => {
    if (transport.kind === 'ipc') return set({ status: 'ready', session: desktopSession });
    try {
      const response = await fetch('/auth/session', { credentials: 'same-origin' });
      set({ status: 'ready', session: (await response.json()) as SessionInfo, error: null });
    } catch {
      set({ status: 'ready', session: null, error: 'Cannot reach the workbench server' });
    }
  },
  loginWithKey: async (apiKey) => {
    const response = await fetch('/auth/login', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ api_key: apiKey }),
    });
    if (!response.ok) {
      set({ error: 'That API key is not valid (unknown, revoked or expired).' });
      return;
    }
    set({ error: null });
    await get().load();
  },
  logout: async () => {
    await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin' });
    await get().load();
  },
}));
