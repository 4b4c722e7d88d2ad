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
  verifyBundleFile: async (file) => bridge.call('cec.verifyUpload', { content_base64: await toBase64(file) }) as never,
});

const toBase64 = async (file: Blob): Promise<string> => {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
