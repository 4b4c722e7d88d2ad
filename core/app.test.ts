import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp, openApp } from './app.ts';
import { postgresMigrations } from './migrations.ts';
import { freshPostgresUrl, postgresUnavailable } from './test-support/postgres.ts';

const count = z.object({ n: z.number() });
const opened: App[] = [];
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-open-app-'));
  dirs.push(dir);
  return dir;
};
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openApp', () => {
  it('without SVC_DATABASE_URL opens the SQLite file in the data dir, as createApp does', async () => {
    const dataDir = scratch();
    const app = await openApp({ dataDir, env: {} });
    opened.push(app);
    expect(app.database.dialect).toBe('sqlite');
    await app.database.run("INSERT INTO pii_state (key, value) VALUES ('k', 'v')");
    expect(app.db.prepare('SELECT count(*) AS n FROM pii_state').get()).toEqual({ n: 1 });
    await app.close();
    // Closed for real: the file reopens with the row in it.
    const again = createApp({ dataDir, env: {} });
    opened.push(again);
    expect(await again.database.one(count, 'SELECT count(*) AS n FROM pii_state')).toEqual({ n: 1 });
  });

  it('createApp refuses SVC_DATABASE_URL instead of quietly opening a SQLite file beside the team database', () => {
    const env = { SVC_DATABASE_URL: 'postgres://svc:pw@127.0.0.1:1/svc' };
    expect(() => createApp({ dataDir: ':memory:', env })).toThrow(/open the app with `await openApp/);
  });
});

describe.skipIf(postgresUnavailable !== undefined)('openApp on PostgreSQL', () => {
  it('connects, migrates once when three instances start together, and has no SQLite connection', async () => {
    const url = await freshPostgresUrl();
    const apps = await Promise.all([1, 2, 3].map(() => openApp({ dataDir: scratch(), env: { SVC_DATABASE_URL: url } })));
    opened.push(...apps);
    const [first, second] = apps as [App, App, App];
    expect(first.database.dialect).toBe('postgres');
    expect(await first.database.one(count, 'SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: postgresMigrations().length });
    // One database behind all of them.
    await first.database.run("INSERT INTO pii_state (key, value) VALUES ('k', 'v')");
    expect(await second.database.one(z.object({ value: z.string() }), "SELECT value FROM pii_state WHERE key = 'k'")).toEqual({
      value: 'v',
    });
    expect(() => first.db).toThrow(/app\.db is SQLite-only .* on PostgreSQL every domain uses app\.database/);
  });

  it('close() ends the pool: the app cannot query afterwards', async () => {
    const app = await openApp({ dataDir: scratch(), env: { SVC_DATABASE_URL: await freshPostgresUrl() } });
    await app.database.one(count, 'SELECT 1 AS n');
    await app.close();
    await expect(app.database.one(count, 'SELECT 1 AS n')).rejects.toThrow(/pool/i);
  });

  it('refuses a pool size outside 2-200, naming the variable', async () => {
    const env = { SVC_DATABASE_URL: await freshPostgresUrl(), SVC_DATABASE_POOL_SIZE: '1' };
    await expect(openApp({ dataDir: scratch(), env })).rejects.toThrow(/^SVC_DATABASE_POOL_SIZE: /);
  });

  it('a database that cannot be reached is one line naming the setting, without the password', async () => {
    const url = new URL(await freshPostgresUrl());
    url.pathname = '/no_such_database';
    const error = await openApp({ dataDir: scratch(), env: { SVC_DATABASE_URL: url.toString() } }).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(
      /^SVC_DATABASE_URL: cannot connect to postgres:\/\/svc_test:\*\*\*@.*no_such_database: database does not exist$/,
    );
  });
});
