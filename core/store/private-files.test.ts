import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { securePrivateTree } from './private-files.ts';

const root = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-private-'));
  dirs.push(dir);
  return dir;
};
const modeOf = (path: string): string => (statSync(path).mode & 0o777).toString(8);

/** Every entry under `dir` with its mode, e.g. `{ 'workbench.db': '600' }`. */
const modes = (dir: string): Record<string, string> => {
  const out: Record<string, string> = { '.': modeOf(dir) };
  const walk = (relative: string): void => {
    for (const name of readdirSync(join(dir, relative))) {
      const path = join(relative, name);
      out[path] = modeOf(join(dir, path));
      if (statSync(join(dir, path)).isDirectory()) walk(path);
    }
  };
  walk('');
  return out;
};

describe('private data at rest', () => {
  it('the svc CLI (umask 077) creates a 0700 data dir and 0600 database, WAL, SHM and secrets', () => {
    const dataDir = join(tempDir(), 'data');
    // The parent shell's umask is the usual 022; the CLI must not depend on it.
    execFileSync(process.execPath, [join(root, 'bin', 'svc.js'), 'keys', 'create', '--tier', 'admin', '--data-dir', dataDir], {
      env: { ...process.env, SVC_LOG_LEVEL: 'silent' },
      stdio: 'pipe',
    });
    const found = modes(dataDir);
    expect(found['.']).toBe('700');
    expect(Object.keys(found)).toContain('workbench.db');
    for (const [path, mode] of Object.entries(found)) {
      const isDir = statSync(join(dataDir, path)).isDirectory();
      expect([path, mode]).toEqual([path, isDir ? '700' : '600']);
    }
  });

  it('tightens looser permissions left on an existing data dir at start, WAL and SHM included', async () => {
    const dataDir = tempDir();
    chmodSync(dataDir, 0o755);
    mkdirSync(join(dataDir, 'bundles', 'b1'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dataDir, 'bundles', 'b1', 'svc_cec_p_2026-01-01_2026-01-31.zip'), 'zip', { mode: 0o644 });
    writeFileSync(join(dataDir, 'workbench.db'), '', { mode: 0o644 });
    const app = createApp({ dataDir, env: {} });
    try {
      await createApiKey(app, { tier: 'admin' }); // a write, so the WAL and SHM exist
      expect(existsSync(join(dataDir, 'workbench.db-wal'))).toBe(true);
      expect(modes(dataDir)).toEqual({
        '.': '700',
        bundles: '700',
        'bundles/b1': '700',
        'bundles/b1/svc_cec_p_2026-01-01_2026-01-31.zip': '600',
        'workbench.db': '600',
        'workbench.db-wal': '600',
        'workbench.db-shm': '600',
        ...(existsSync(join(dataDir, 'secrets.json')) ? { 'secrets.json': '600' } : {}),
      });
    } finally {
      app.close();
    }
  });
});

describe('securing the data dir while another process works in it', () => {
  it('passes over files another process removes during the walk (SQLite -wal and -shm, temp files)', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'sub'));
    // A real second process creating and deleting files in the dir as fast as it can, for a second.
    const churn = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs'); const end = Date.now() + 1000; let i = 0;
       while (Date.now() < end) { for (const d of [${JSON.stringify(dir)}, ${JSON.stringify(join(dir, 'sub'))}]) {
         const f = d + '/f' + (i++ % 64); try { fs.writeFileSync(f, 'x', { mode: 0o644 }); fs.unlinkSync(f); } catch {} } }`,
    ]);
    const exited = new Promise((resolve) => churn.once('exit', resolve));
    const log = { warn: () => undefined } as unknown as Parameters<typeof securePrivateTree>[1];
    let walks = 0;
    try {
      while (churn.exitCode === null) {
        securePrivateTree(dir, log);
        walks += 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      churn.kill();
      await exited;
    }
    expect(walks).toBeGreaterThan(10);
  });
});
