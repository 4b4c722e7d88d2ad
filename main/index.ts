import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app as electronApp, BrowserWindow, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import { openApp } from '../core/app.ts';
import { startAnchorScheduler } from '../core/audit/anchors/scheduler.ts';
import { envSetting } from '../core/config/env-settings.ts';
import { startListener, type Listener } from '../core/http/listen.ts';
import { createLogger } from '../core/log.ts';
import { startPiiWorkers } from '../core/pii/pool/scanner.ts';
import { type BridgeEvent, eventsChannel } from '../core/contracts/ipc.ts';
import { applyPrivateUmask } from '../core/store/private-files.ts';
import { registerOps } from './ipc/register-ops.ts';
import { rendererResponder } from './renderer-protocol.ts';
import { desktopSecretStore } from './secrets.ts';
import { appOrigin, appScheme, isSafeExternalUrl, isTrustedRendererUrl, windowOptions } from './window-options.ts';

// Electron main: thin by design. All product logic is in core/; this file wires it to a window.
const here = fileURLToPath(new URL('.', import.meta.url));
const rendererDir = join(here, '..', 'renderer', 'dist');
applyPrivateUmask();
const log = createLogger({ name: 'svc-desktop' });

protocol.registerSchemesAsPrivileged([{ scheme: appScheme, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const start = async (): Promise<void> => {
  await electronApp.whenReady();
  const dataDir = envSetting(process.env, 'dataDir') || electronApp.getPath('userData');
  const core = await openApp({
    dataDir,
    log,
    secrets: desktopSecretStore(dataDir, safeStorage),
    openExternal: (url) => (isSafeExternalUrl(url) ? shell.openExternal(url) : Promise.reject(new Error('Refusing a non-http(s) URL'))),
  });

  protocol.handle(appScheme, (request) => rendererResponder(rendererDir)(request.url));
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  startPiiWorkers(core);
  registerOps(ipcMain, core, isTrustedRendererUrl);
  startAnchorScheduler(core);

  let listener: Listener | undefined;
  const settings = core.settings.get();
  if (settings.httpEnabled) {
    listener = await startListener(core, { port: settings.httpPort, rendererDir });
    log.info({ url: listener.url }, 'local HTTP API listening');
  }

  const window = new BrowserWindow(windowOptions(join(here, 'preload.cjs')));
  const unsubscribe = core.events.on('progress', (payload) =>
    window.webContents.send(eventsChannel, { name: 'progress', payload } satisfies BridgeEvent),
  );
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!isTrustedRendererUrl(url)) event.preventDefault();
  });
  window.webContents.on('will-attach-webview', (event) => event.preventDefault());
  window.once('ready-to-show', () => window.show());
  await window.loadURL(`${appOrigin}/index.html`);

  electronApp.on('window-all-closed', async () => {
    unsubscribe();
    await listener?.close();
    await core.close();
    electronApp.quit();
  });
};

start().catch((error: unknown) => {
  log.fatal({ err: error }, 'desktop app failed to start');
  electronApp.exit(1);
});
