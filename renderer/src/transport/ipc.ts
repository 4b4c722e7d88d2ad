import type { Transport, WorkbenchBridge } from './transport.ts';

/** Electron: every call goes through the preload bridge to the one `ops:call` IPC channel. */
export const ipcTransport = (bridge: WorkbenchBridge): Transport => ({
  kind: 'ipc',
  call: (name, input, options) => bridge.call(name, input, options) as never,
  subscribe: (name, listener) => bridge.subscribe(name, listener as (payload: unknown) => void),
});
