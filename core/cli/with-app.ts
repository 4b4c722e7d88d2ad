import { type App, openApp } from '../app.ts';

/** Runs a CLI command's work on an app over `dataDir` (':memory:' for none) and always closes it. */
export const withApp = async <T>(dataDir: string, run: (app: App) => Promise<T>): Promise<T> => {
  const app = await openApp({ dataDir });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
};
