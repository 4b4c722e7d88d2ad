import type { FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { type App, createApp } from '../app.ts';
import { createApiKey, type KeyTier } from '../identity/api-keys/service.ts';
import { appPerTest, type TestBackend } from '../test-support/backends.ts';
import { buildServer } from './server.ts';

export type TestServer = {
  readonly app: App;
  readonly server: FastifyInstance;
  /** An admin API key, as `Authorization: Bearer <adminKey>`. */
  readonly adminKey: string;
  /** Creates another key on either back end, e.g. `await newKey('free')` or `await newKey('api', ['scim'])`. */
  newKey(tier: KeyTier, scopes?: readonly 'scim'[]): Promise<string>;
  /** Headers with a bearer key (admin by default). */
  auth(key?: string): { authorization: string };
  close(): Promise<void>;
};

/**
 * An in-memory app and a server for `server.inject()`. The origin is `http://localhost:80`, which is the
 * authority inject() sends by default, so Host checks pass without extra headers.
 */
export const createTestServer = async (
  options: { env?: NodeJS.ProcessEnv; now?: () => Date; dataDir?: string; app?: App } = {},
): Promise<TestServer> => {
  const app =
    options.app ??
    createApp({ dataDir: options.dataDir ?? ':memory:', env: options.env ?? {}, ...(options.now ? { now: options.now } : {}) });
  const server = await buildServer({ app, origin: () => 'http://localhost:80' });
  await server.ready();
  const keyInput = (tier: KeyTier, scopes: readonly 'scim'[]) => ({ tier, scopes: [...scopes], name: `test ${tier}` });
  const newKey = async (tier: KeyTier, scopes: readonly 'scim'[] = []): Promise<string> =>
    (await createApiKey(app, keyInput(tier, scopes))).secret;
  const adminKey = await newKey('admin');
  return {
    app,
    server,
    adminKey,
    newKey,
    auth: (key = adminKey) => ({ authorization: `Bearer ${key}` }),
    close: async () => {
      await server.close();
      if (options.app === undefined) app.close();
    },
  };
};

/**
 * A test server on a fresh app on `backend` (appPerTest), per test of the enclosing describe:
 * `describe.each(testBackends)('... on $name', (backend) => { const serve = serverPerTest(backend); ... await serve() })`.
 * The server is made on the first `serve()` of a test (after the test has set up what the app's options read)
 * and closed before the app.
 */
export const serverPerTest = (backend: TestBackend, options: Parameters<typeof appPerTest>[1] = {}): (() => Promise<TestServer>) => {
  const apps = appPerTest(backend, options);
  let current: TestServer | undefined;
  // Registered after appPerTest's: vitest runs after-hooks in reverse, so the server closes before its app.
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return async () => {
    current ??= await createTestServer({ app: apps().app });
    return current;
  };
};
