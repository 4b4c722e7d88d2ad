import { type App, createApp, openApp } from './app.ts';
import { defaultDataDir } from './config/data-dir.ts';
import { createLogger } from './log.ts';

let opening: Promise<App> | undefined;
let opened: App | undefined;
const options = () => ({ dataDir: defaultDataDir(), log: createLogger({ name: 'svc-sdk' }) });

/**
 * The app behind the SDK singletons (`sfCec`, `sfIdentity`): the data dir from SVC_DATA_DIR or the platform's user
 * data dir, on PostgreSQL when SVC_DATABASE_URL is set (openApp), opened on first use so importing the SDK has no
 * side effects.
 */
export const openDefaultApp = (): Promise<App> => {
  opening ??= openApp(options()).then((app) => {
    opened = app;
    return app;
  });
  return opening;
};

/**
 * The same app, synchronously: SQLite only (with SVC_DATABASE_URL set, createApp refuses and says to use openApp).
 * Kept for the SDK clients whose getters are still synchronous; they move to `await openDefaultApp()`.
 */
export const defaultApp = (): App => {
  if (opened === undefined) {
    opened = createApp(options());
    opening = Promise.resolve(opened);
  }
  return opened;
};
