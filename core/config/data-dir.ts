import envPaths from 'env-paths';

/** `SVC_DATA_DIR`, else the platform's user data dir (XDG on Linux, Application Support on macOS, AppData on Windows). */
export const defaultDataDir = (env: NodeJS.ProcessEnv = process.env): string =>
  env.SVC_DATA_DIR && env.SVC_DATA_DIR !== '' ? env.SVC_DATA_DIR : envPaths('svc-workbench', { suffix: '' }).data;
