import type { SessionInfo, Transport, WorkbenchBridge } from './transport.ts';

/** Whoever runs the desktop app owns its data: always signed in, with the admin tier. */
const desktopSession: SessionInfo = {
  authenticated: true,
  subject: 'desktop user',
  tier: 'admin',
  sso: { required: 'off', saml: false, oidc: false },
};

/** Electron: every call goes through the preload bridge to the one `ops:call` IPC channel. */
export const ipcTransport = (bridge: WorkbenchBridge): Transport => ({
  kind: 'ipc',
  session: {
    current: async () => desktopSession,
    loginWithKey: async () => true,
    logout: async () => {},
  },
  call: (name, input, options) => bridge.call(name, input, options) as never,
  subscribe: (name, listener) => bridge.subscribe(name, listener as (payload: unknown) => void),
});
