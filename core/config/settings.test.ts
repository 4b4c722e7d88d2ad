import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const step of cleanup.splice(0)) step();
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-settings-'));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const open = (dataDir: string, env: NodeJS.ProcessEnv = {}): App => {
  const app = createApp({ dataDir, env });
  cleanup.unshift(() => app.close());
  return app;
};

describe('settings', () => {
  it('persists changes in the data dir and keeps untouched keys', async () => {
    const dir = tempDir();
    const first = open(dir);
    await first.settings.update({ chatModel: 'llama3' });
    await first.settings.update({ piiAction: 'block' });
    await first.close();
    cleanup.shift();
    const second = open(dir);
    expect(second.settings.get()).toMatchObject({ chatModel: 'llama3', piiAction: 'block', httpPort: 8765 });
  });

  it('lets environment variables override stored values and reports which', async () => {
    const app = open(':memory:', { SVC_PII_ACTION: 'flag', SVC_HTTP_PORT: '9000', SVC_HTTP_ENABLED: 'false' });
    await app.settings.update({ piiAction: 'block' });
    expect(app.settings.get()).toMatchObject({ piiAction: 'flag', httpPort: 9000, httpEnabled: false });
    expect(app.settings.view().overriddenByEnv).toEqual(expect.arrayContaining(['piiAction', 'httpPort', 'httpEnabled']));
  });

  it('keeps secrets in a 0600 file, never in SQLite, and reports only whether they are set', () => {
    const dir = tempDir();
    const app = open(dir);
    app.settings.setSecret('chatApiKey', 'sk-very-secret');
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600);
    expect(JSON.stringify(app.db.prepare('SELECT * FROM settings').all())).not.toContain('sk-very-secret');
    const view = app.settings.view();
    expect(view.secrets.chatApiKey).toEqual({ set: true, fromEnv: false });
    expect(JSON.stringify(view)).not.toContain('sk-very-secret');
    expect(app.settings.secret('chatApiKey')).toBe('sk-very-secret');
  });

  it('prefers the environment for secrets (PROVIDER_API_KEY, SVC_SIGNING_KEY)', () => {
    const app = open(':memory:', { PROVIDER_API_KEY: 'from-env' });
    app.settings.setSecret('chatApiKey', 'stored');
    expect(app.settings.secret('chatApiKey')).toBe('from-env');
    expect(app.settings.view().secrets.chatApiKey.fromEnv).toBe(true);
  });
});

const storedRows = z.object({ key: z.string(), value: z.string() });
/** Polled, not slept: a loaded machine may take a while to deliver a notification, a fast one takes milliseconds. */
const eventually = { timeout: 15_000, interval: 50 };

describe.each(testBackends)('settings on $name', (backend) => {
  const t = appPerTest(backend);

  it('writes through the database and reads from memory', async () => {
    const { app } = t();
    const view = await app.settings.update({ chatModel: 'llama3', piiAction: 'block' });
    expect(view.values).toMatchObject({ chatModel: 'llama3', piiAction: 'block' });
    expect(app.settings.get()).toMatchObject({ chatModel: 'llama3', piiAction: 'block' });
    const rows = await app.database.all(storedRows, 'SELECT key, value FROM settings ORDER BY key');
    expect(rows).toEqual([
      { key: 'chatModel', value: '"llama3"' },
      { key: 'piiAction', value: '"block"' },
    ]);
  });

  it('rejects unknown keys and invalid values, writing nothing', async () => {
    const { app } = t();
    await expect(app.settings.update({ piiAction: 'shout' as 'block' })).rejects.toThrow();
    await expect(app.settings.update({ nope: 1 } as object)).rejects.toThrow();
    expect(app.settings.get().piiAction).toBe('redact');
    expect(await app.database.all(storedRows, 'SELECT key, value FROM settings')).toEqual([]);
  });

  it('refuses control characters in path settings (a NUL reached the file system and failed with a 500)', async () => {
    const { app } = t();
    for (const bad of ['/tmp/out\u0000x', '/tmp/out\nx', '/tmp/out\u0085x']) {
      await expect(app.settings.update({ bundleOutputDir: bad })).rejects.toThrow(/control characters/);
      await expect(app.settings.update({ tsaCaFile: bad })).rejects.toThrow(/control characters/);
    }
    await app.settings.update({ bundleOutputDir: '/tmp/bundles ü' });
    expect(app.settings.get()).toMatchObject({ bundleOutputDir: '/tmp/bundles ü', tsaCaFile: '' });
  });

  it("a second instance sees the first one's change without being asked", async () => {
    const { app } = t();
    const second = await t().second();
    expect(second.settings.get().chatModel).not.toBe('mistral');
    await app.settings.update({ chatModel: 'mistral' });
    await expect.poll(() => second.settings.get().chatModel, eventually).toBe('mistral');
    // And back the other way, on the same connections.
    await second.settings.update({ piiAction: 'flag' });
    await expect.poll(() => app.settings.get().piiAction, eventually).toBe('flag');
  });
});

describe.each(testBackends.filter((backend) => backend.name === 'postgres'))('settings listener on $name', (backend) => {
  const t = appPerTest(backend);

  it('reconnects when its connection is cut, catches up on what it missed, and hears later changes', async () => {
    const { app } = t();
    const second = await t().second();
    // Written behind every instance's back (no NOTIFY): only a reload after reconnecting can pick it up.
    await app.database.run("INSERT INTO settings (key, value) VALUES ('chatModel', '\"phi3\"')");
    const killed = await app.database.all(
      z.object({ pid: z.number() }),
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN svc_settings' AND pid <> pg_backend_pid()",
    );
    expect(killed).toHaveLength(2);
    await app.database.run("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY(string_to_array(?, ',')::int[])", [
      killed.map((row) => row.pid).join(','),
    ]);
    await expect.poll(() => second.settings.get().chatModel, eventually).toBe('phi3');
    await app.settings.update({ piiAction: 'block' });
    await expect.poll(() => second.settings.get().piiAction, eventually).toBe('block');
  });
});
