/**
 * The desktop app's IPC contract, shared by main (which handles it), preload (which bridges it) and the
 * renderer (which calls it). Contracts import nothing from Node or Electron, so every process may import them.
 */

/** The one channel every operation goes through, and the one that carries events back. */
export const opsChannel = 'ops:call';
export const eventsChannel = 'ops:event';

export type CallOptions = { readonly requestId?: string };

/** What the preload script exposes as `window.workbench` (it knows no operation names). */
export type WorkbenchBridge = {
  call(name: string, input: unknown, options?: CallOptions): Promise<unknown>;
  subscribe(name: string, listener: (payload: unknown) => void): () => void;
};

/** What travels on `eventsChannel`. */
export type BridgeEvent = { readonly name: string; readonly payload: unknown };
