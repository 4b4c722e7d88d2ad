import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandInfo } from './command-info.ts';
import { repoRoot } from './spawn-svc.test-support.ts';

// `npx svc` (the README's way to run the CLI): npm links the bin of the local `svc-cli` package (bin/, a file:
// dependency) into node_modules/.bin, and npx runs that link. A `bin` on the workbench's own package.json would
// instead make npx install the workbench into its cache and read the whole dependency tree first: 1-1.5 s before
// svc starts (docs/decisions.md, "npx svc").
describe('npx svc', () => {
  it('runs the linked bin directly: help printed, nothing installed into the npx cache', () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-npx-cache-'));
    try {
      const run = spawnSync('npx', ['svc', '--help'], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: { ...process.env, npm_config_cache: cache, npm_config_yes: 'false', npm_config_update_notifier: 'false' },
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(0);
      for (const { usage } of Object.values(commandInfo)) expect(run.stdout).toContain(usage);
      expect(existsSync(join(cache, '_npx'))).toBe(false);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);

  it('the workbench declares no bin of its own, and node_modules/.bin/svc is bin/svc.js', () => {
    const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      bin?: unknown;
      dependencies: Record<string, string>;
    };
    expect(manifest.bin).toBeUndefined();
    expect(manifest.dependencies['svc-cli']).toBe('file:bin');
    expect(realpathSync(join(repoRoot, 'node_modules', '.bin', 'svc'))).toBe(realpathSync(join(repoRoot, 'bin', 'svc.js')));
  });
});
