import { type App, createApp } from './app.ts';
import { defaultDataDir } from './config/data-dir.ts';
import { createLogger } from './log.ts';

let shared: App | undefined;

/**
 * The app behind the SDK singletons (`sfCec`, `sfIdentity`): the data dir from SVC_DATA_DIR or the platform's user
 * data dir, opened on first use so importing the SDK has no side effects.
 */
export const defaultApp = (): App => {
  shared ??= createApp({ dataDir: defaultDataDir(), log: createLogger({ name: 'svc-sdk' }) });
  return shared;
};
