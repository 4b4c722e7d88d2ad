import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type App, openApp } from '../app.ts';
import type { TestBackend } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';

export type DescribeApp = { readonly app: App; readonly dir: string };

/**
 * One app for a whole describe on `backend`, for tests that build on each other's state (one seed, then several
 * bundles, downloads and reissues): opened in beforeAll as production opens it (`openApp`: on PostgreSQL with the
 * SVC_DATABASE_URL of a fresh database, which the build worker inherits), on a private data dir with the test
 * signing key, and closed in afterAll. Tests that need a fresh app each use bundleAppPerTest (test-support.ts).
 * `env` may be a function: read in beforeAll, after the hooks registered before this call (e.g. a TSA's URL).
 */
export const appPerDescribe = (
  backend: TestBackend,
  env: NodeJS.ProcessEnv | (() => NodeJS.ProcessEnv) = {},
  options: { now?: () => Date } = {},
): (() => DescribeApp) => {
  let current: DescribeApp | undefined;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-cec-'));
    const database = backend.name === 'postgres' ? { SVC_DATABASE_URL: await freshPostgresUrl() } : {};
    const extra = typeof env === 'function' ? env() : env;
    const app = await openApp({
      dataDir: dir,
      env: { SVC_SIGNING_KEY: 'test-signing-key-0123456789abcdef', ...extra, ...database },
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    current = { app, dir };
  });
  afterAll(async () => {
    await current?.app.close();
    if (current !== undefined) rmSync(current.dir, { recursive: true, force: true });
    current = undefined;
  });
  return () => {
    if (current === undefined) throw new Error('appPerDescribe: only inside a test or a later hook');
    return current;
  };
};
