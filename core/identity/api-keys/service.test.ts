import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { createApiKey, listApiKeys, revokeApiKey, revokeKeysOfUser, rotateApiKey, validateApiKey } from './service.ts';

let clock = new Date('2026-01-01T00:00:00Z');
const apps: App[] = [];
const newApp = (dataDir = ':memory:'): App => {
  const app = createApp({ dataDir, env: {}, now: () => clock });
  apps.push(app);
  return app;
};
afterEach(() => {
  for (const app of apps.splice(0)) app.close();
  clock = new Date('2026-01-01T00:00:00Z');
});

describe('API keys', () => {
  it('stores only a hash: the secret is returned once and never listed', () => {
    const app = newApp();
    const key = createApiKey(app, { tier: 'api', name: 'ci' });
    expect(validateApiKey(app, key.secret)?.id).toBe(key.id);
    const listed = listApiKeys(app);
    expect(JSON.stringify(listed)).not.toContain(key.secret);
    const row = app.db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    expect(Object.values(row)).not.toContain(key.secret);
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('revokes at once', () => {
    const app = newApp();
    const key = createApiKey(app, { tier: 'api' });
    expect(revokeApiKey(app, key.id).status).toBe('revoked');
    expect(validateApiKey(app, key.secret)).toBeNull();
  });

  it('expires keys created with a lifetime', () => {
    const app = newApp();
    const key = createApiKey(app, { tier: 'api', expires_in_days: 1 });
    expect(validateApiKey(app, key.secret)).not.toBeNull();
    clock = new Date('2026-01-02T00:00:01Z');
    expect(validateApiKey(app, key.secret)).toBeNull();
    expect(listApiKeys(app)[0]?.status).toBe('expired');
  });

  it('rotates: the new secret works, the old one only during the grace period', () => {
    const app = newApp();
    const old = createApiKey(app, { tier: 'admin', name: 'deploy', scopes: ['scim'] });
    const rotated = rotateApiKey(app, old.id, 60);
    expect(rotated).toMatchObject({ name: 'deploy', tier: 'admin', scopes: ['scim'] });
    expect(rotated.secret).not.toBe(old.secret);
    expect(validateApiKey(app, old.secret)).not.toBeNull();
    clock = new Date(clock.getTime() + 61_000);
    expect(validateApiKey(app, old.secret)).toBeNull();
    expect(validateApiKey(app, rotated.secret)?.id).toBe(rotated.id);
  });

  it('rotation without grace revokes the old key immediately; a revoked key cannot be rotated', () => {
    const app = newApp();
    const old = createApiKey(app, { tier: 'api' });
    rotateApiKey(app, old.id);
    expect(validateApiKey(app, old.secret)).toBeNull();
    expect(() => rotateApiKey(app, old.id)).toThrow(/revoked/);
  });

  it('revokes every key of a deactivated user', () => {
    const app = newApp();
    const a = createApiKey(app, { tier: 'api', owner_user_id: 'scim-user-1' });
    const b = createApiKey(app, { tier: 'api', owner_user_id: 'scim-user-2' });
    expect(revokeKeysOfUser(app, 'scim-user-1')).toBe(1);
    expect(validateApiKey(app, a.secret)).toBeNull();
    expect(validateApiKey(app, b.secret)).not.toBeNull();
  });

  it('rejects bad input with a clear error and writes nothing', () => {
    const app = newApp();
    expect(() => createApiKey(app, { tier: 'root' as 'api' })).toThrow();
    expect(listApiKeys(app)).toHaveLength(0);
  });

  it('persists across restarts of a real SQLite file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));
    try {
      const first = newApp(dir);
      const key = createApiKey(first, { tier: 'api' });
      first.close();
      apps.splice(apps.indexOf(first), 1);
      const second = newApp(dir);
      expect(validateApiKey(second, key.secret)?.id).toBe(key.id);
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
      const stored = new Set(listApiKeys(app).map((key) => key.id));
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
