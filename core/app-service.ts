import type { App } from './app.ts';

/**
 * A domain's per-app singleton, created on first use. Apart from app.ts so that modules needing only this (the
 * verifier's key helpers) do not load the storage stack: `svc verify` with explicit trust inputs opens no app.
 */
export const service = <T>(app: App, key: string, create: (app: App) => T): T => {
  if (!app.services.has(key)) app.services.set(key, create(app));
  return app.services.get(key) as T;
};
