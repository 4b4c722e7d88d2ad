import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openApp } from '../app.ts';
import { validateApiKey } from '../identity/api-keys/service.ts';
import { testBackends } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';
import { runSvc } from './test-support.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe.each(testBackends)('svc keys on $name', (backend) => {
  // As an operator runs it: on PostgreSQL the CLI (openApp) finds SVC_DATABASE_URL in its environment.
  beforeEach(async () => {
    if (backend.name === 'postgres') vi.stubEnv('SVC_DATABASE_URL', await freshPostgresUrl());
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('creates, lists and revokes keys in the data dir; the secret is printed once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-keys-cli-'));
    dirs.push(dataDir);
    const created = await runSvc(['keys', 'create', '--tier', 'admin', '--name', 'ops', '--data-dir', dataDir]);
    expect(created.code).toBe(0);
    const secret = created.stdout.trim();
    expect(secret).toMatch(/^svc_[0-9A-Za-z]{36}$/);
    expect(created.stderr).toMatch(/Created admin key key-\w+ \(ops\)/);
    const listed = await runSvc(['keys', 'list', '--data-dir', dataDir]);
    const keys = JSON.parse(listed.stdout) as { id: string; name: string; status: string }[];
    expect(keys).toEqual([expect.objectContaining({ name: 'ops', status: 'active' })]);
    expect(listed.stdout).not.toContain(secret);
    const app = await openApp({ dataDir });
    expect(app.database.dialect).toBe(backend.name);
    try {
      expect((await validateApiKey(app, secret))?.id).toBe(keys[0]?.id);
      const revoked = await runSvc(['keys', 'revoke', keys[0]?.id ?? '', '--data-dir', dataDir]);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ id: keys[0]?.id, status: 'revoked' });
      expect(await validateApiKey(app, secret)).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown tier and an unknown key with a clear message, writing nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-keys-cli-'));
    dirs.push(dataDir);
    const badTier = await runSvc(['keys', 'create', '--tier', 'root', '--data-dir', dataDir]);
    expect([badTier.code, badTier.stderr]).toEqual([2, '--tier must be one of free, api, admin\n']);
    const unknown = await runSvc(['keys', 'revoke', 'key-none', '--data-dir', dataDir]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('No API key key-none');
    expect(JSON.parse((await runSvc(['keys', 'list', '--data-dir', dataDir])).stdout)).toEqual([]);
  });
});
