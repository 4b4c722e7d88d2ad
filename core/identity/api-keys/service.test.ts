import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { createApiKey, listApiKeys, revokeApiKey, revokeKeysOfUser, rotateApiKey, validateApiKey } from './service.ts';

const start = new Date('2026-01-01T00:00:00Z');
let clock = start;
afterEach(() => {
  clock = start;
});
const storedRow = z.record(z.string(), z.unknown());

describe.each(testBackends)('API keys on $name', (backend) => {
  const t = appPerTest(backend, { now: () => clock });

  it('stores only a hash: the secret is returned once and never listed', async () => {
    const { app } = t();
    const key = await createApiKey(app, { tier: 'api', name: 'ci' });
    expect((await validateApiKey(app, key.secret))?.id).toBe(key.id);
    const listed = await listApiKeys(app);
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    const row = await app.database.one(storedRow, 'SELECT * FROM api_keys');
    expect(Object.values(row ?? {})).not.toContain(key.secret);
    expect(row?.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('revokes at once', async () => {
    const { app } = t();
    const key = await createApiKey(app, { tier: 'api' });
    expect((await revokeApiKey(app, key.id)).status).toBe('revoked');
    expect(await validateApiKey(app, key.secret)).toBeNull();
    await expect(revokeApiKey(app, 'key-none')).rejects.toThrow(/No API key key-none/);
  });

  it('expires keys created with a lifetime', async () => {
    const { app } = t();
    const key = await createApiKey(app, { tier: 'api', expires_in_days: 1 });
    expect(await validateApiKey(app, key.secret)).not.toBeNull();
    clock = new Date('2026-01-02T00:00:01Z');
    expect(await validateApiKey(app, key.secret)).toBeNull();
    expect((await listApiKeys(app))[0]?.status).toBe('expired');
  });

  it('stamps last use at most once a minute', async () => {
    const { app } = t();
    const key = await createApiKey(app, { tier: 'api' });
    const lastUsed = async () => (await listApiKeys(app))[0]?.last_used_at;
    expect(await lastUsed()).toBeNull();
    await validateApiKey(app, key.secret);
    expect(await lastUsed()).toBe(start.toISOString());
    clock = new Date(start.getTime() + 30_000);
    await validateApiKey(app, key.secret);
    expect(await lastUsed()).toBe(start.toISOString());
    clock = new Date(start.getTime() + 61_000);
    await validateApiKey(app, key.secret);
    expect(await lastUsed()).toBe(clock.toISOString());
  });

  it('rotates: the new secret works, the old one only during the grace period', async () => {
    const { app } = t();
    const old = await createApiKey(app, { tier: 'admin', name: 'deploy', scopes: ['scim'] });
    const rotated = await rotateApiKey(app, old.id, 60);
    expect(rotated).toMatchObject({ name: 'deploy', tier: 'admin', scopes: ['scim'] });
    expect(rotated.secret).not.toBe(old.secret);
    expect(await validateApiKey(app, old.secret)).not.toBeNull();
    clock = new Date(clock.getTime() + 61_000);
    expect(await validateApiKey(app, old.secret)).toBeNull();
    expect((await validateApiKey(app, rotated.secret))?.id).toBe(rotated.id);
  });

  it('rotation without grace revokes the old key immediately; a revoked key cannot be rotated', async () => {
    const { app } = t();
    const old = await createApiKey(app, { tier: 'api' });
    await rotateApiKey(app, old.id);
    expect(await validateApiKey(app, old.secret)).toBeNull();
    await expect(rotateApiKey(app, old.id)).rejects.toThrow(/revoked/);
  });

  it('revokes every key of a deactivated user', async () => {
    const { app } = t();
    const a = await createApiKey(app, { tier: 'api', owner_user_id: 'scim-user-1' });
    const b = await createApiKey(app, { tier: 'api', owner_user_id: 'scim-user-2' });
    expect(await revokeKeysOfUser(app, 'scim-user-1')).toBe(1);
    expect(await validateApiKey(app, a.secret)).toBeNull();
    expect(await validateApiKey(app, b.secret)).not.toBeNull();
  });

  it('rejects bad input with a clear error and writes nothing', async () => {
    const { app } = t();
    await expect(createApiKey(app, { tier: 'root' as 'api' })).rejects.toThrow(/Invalid API key: tier/);
    await expect(createApiKey(app, { tier: 'api', expires_in_days: 0 })).rejects.toThrow(/expires_in_days/);
    expect(await listApiKeys(app)).toHaveLength(0);
    expect(await validateApiKey(app, 'svc_not-a-key')).toBeNull();
  });

  it('a key revoked on one instance is refused by the other at once', async () => {
    const first = t().app;
    const second = await t().second();
    const key = await createApiKey(first, { tier: 'api' });
    expect((await validateApiKey(second, key.secret))?.id).toBe(key.id);
    await revokeApiKey(second, key.id);
    expect(await validateApiKey(first, key.secret)).toBeNull();
    const other = await createApiKey(second, { tier: 'api', owner_user_id: 'u-1' });
    expect(await validateApiKey(first, other.secret)).not.toBeNull();
    await revokeKeysOfUser(first, 'u-1');
    expect(await validateApiKey(second, other.secret)).toBeNull();
  });

  it('of two rotations racing on two instances, exactly one wins', async () => {
    const first = t().app;
    const second = await t().second();
    for (let round = 0; round < 5; round++) {
      const key = await createApiKey(first, { tier: 'api', name: `race ${round}` });
      const outcomes = await Promise.allSettled([rotateApiKey(first, key.id, 60), rotateApiKey(second, key.id, 60)]);
      expect(
        outcomes.filter((outcome) => outcome.status === 'fulfilled'),
        `round ${round}`,
      ).toHaveLength(1);
      const lost = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(String(lost?.status === 'rejected' ? lost.reason : '')).toMatch(/already rotated to key-/);
      expect((await listApiKeys(first)).filter((listed) => listed.name === `race ${round}`)).toHaveLength(2);
    }
  });
});

// The embedded back end's own promises: a key survives a restart and a kill -9 of the process that wrote it.
describe('API keys in a SQLite file', () => {
  const apps: App[] = [];
  afterEach(() => {
    for (const app of apps.splice(0)) app.close();
  });
  const newApp = (dataDir: string): App => {
    const app = createApp({ dataDir, env: {}, now: () => clock });
    apps.push(app);
    return app;
  };

  it('persists across restarts of a real SQLite file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
    try {
      const first = newApp(dir);
      const key = await createApiKey(first, { tier: 'api' });
      first.close();
      apps.splice(apps.indexOf(first), 1);
      const second = newApp(dir);
      expect((await validateApiKey(second, key.secret))?.id).toBe(key.id);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loses no acknowledged key when the process is killed with SIGKILL mid-stream', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-kill-'));
    try {
      const script = join(import.meta.dirname, 'test', 'create-keys-forever.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      const acknowledged: string[] = [];
      await new Promise<void>((resolve) => {
        let buffer = '';
        child.stdout.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const lines = buffer.split('\n');
          buffer = lines.pop() ?? '';
          acknowledged.push(...lines.filter(Boolean));
          if (acknowledged.length >= 40 && !child.killed) {
            child.kill('SIGKILL');
            resolve();
          }
        });
      });
      await new Promise((resolve) => child.once('exit', resolve));
      const app = newApp(dir);
      const stored = new Set((await listApiKeys(app)).map((key) => key.id));
      for (const id of acknowledged) expect(stored.has(id)).toBe(true);
      // A second, read-only connection checks the file the way the sqlite3 shell would.
      const check = new Database(join(dir, 'workbench.db'), { readonly: true });
      try {
        expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        check.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
