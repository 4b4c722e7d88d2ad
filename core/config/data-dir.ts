import envPaths from 'env-paths';
import { envSetting } from './env-settings.ts';

/** `SVC_DATA_DIR`, else the platform's user data dir (XDG on Linux, Application Support on macOS, AppData on Windows). */
export const defaultDataDir = (env: NodeJS.ProcessEnv = process.env): string =>
  envSetting(env, 'dataDir') || envPaths('svc-workbench', { suffix: '' }).data;
