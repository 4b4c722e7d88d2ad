import type { App } from '../../core/app.ts';
import { dispatch } from '../../core/ops/dispatch.ts';
import type { Actor, OpResult } from '../../core/ops/define.ts';

import { opsChannel } from '../../core/contracts/ipc.ts';

/** The subset of Electron's IpcMain/IpcMainInvokeEvent we rely on, so the adapter is testable without Electron. */
export type InvokeEvent = { readonly senderFrame: { readonly url: string } | null };
export type IpcMainLike = {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
};

/** The desktop user: whoever runs the app owns its data dir, so they act with the admin tier. */
export const desktopActor: Actor = { kind: 'local', id: 'desktop', tier: 'admin', scopes: [] };

const forbidden: OpResult<never> = {
  ok: false,
  error: { code: 'FORBIDDEN', message: 'Calls are accepted only from the workbench window' },
};

/**
 * Registers `ops:call`. The sender frame is checked on every call (Electron advisory GHSA-mq8j-3h7h-p8g7): only
 * the app's own top-level page may call; an iframe or a navigated-away frame is refused.
 */
export const registerOps = (ipcMain: IpcMainLike, app: App, isTrustedFrame: (url: string) => boolean): void => {
  ipcMain.handle(opsChannel, async (event, name, input, options) => {
    const url = event.senderFrame?.url;
    if (url === undefined || !isTrustedFrame(url)) return forbidden;
    const requestId = (options as { requestId?: unknown } | undefined)?.requestId;
    return dispatch(name, input, {
      app,
      actor: desktopActor,
      ...(typeof requestId === 'string' && requestId.length <= 100 ? { requestId } : {}),
    });
  });
};
