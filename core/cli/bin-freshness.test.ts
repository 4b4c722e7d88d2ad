import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { repoRoot } from './spawn-svc.test-support.ts';

// bin/svc.js's rule (docs/decisions.md, "Start-up"): the build runs only while no source it lists changed after
// the build started; otherwise the sources run through tsx. Checked on a scratch package with a stand-in build
// and stand-in sources that say which of them ran.
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const scratch = (options: { built: boolean; tsx: boolean }) => {
  const root = mkdtempSync(join(tmpdir(), 'svc-bin-'));
  roots.push(root);
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'core'));
  copyFileSync(join(repoRoot, 'bin', 'svc.js'), join(root, 'bin', 'svc.js'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  // TypeScript syntax, so it runs only through tsx.
  writeFileSync(
    join(root, 'core', 'cli.ts'),
    "export const main = async (argv: string[]): Promise<number> => { console.log('sources', argv.join(' ')); return 3; };\n",
  );
  const past = new Date(Date.now() - 60_000);
  utimesSync(join(root, 'core', 'cli.ts'), past, past);
  if (options.built) {
    mkdirSync(join(root, 'dist'));
    writeFileSync(
      join(root, 'dist', 'cli.mjs'),
      "export const main = async (argv) => { console.log('built', argv.join(' ')); return 4; };\n",
    );
    writeFileSync(join(root, 'dist', 'cli-inputs.json'), JSON.stringify({ builtAt: Date.now() - 30_000, inputs: ['core/cli.ts'] }));
  }
  if (options.tsx) {
    mkdirSync(join(root, 'node_modules'));
    symlinkSync(join(repoRoot, 'node_modules', 'tsx'), join(root, 'node_modules', 'tsx'));
  }
  const run = () => spawnSync(process.execPath, [join(root, 'bin', 'svc.js'), 'a', 'b'], { encoding: 'utf8', timeout: 60_000 });
  return { root, run };
};

describe('bin/svc.js picks the build or the sources', () => {
  it('runs a fresh build, and the sources once one of them is newer than the build', () => {
    const { root, run } = scratch({ built: true, tsx: true });
    const fresh = run();
    expect([fresh.status, fresh.stdout]).toEqual([4, 'built a b\n']);
    utimesSync(join(root, 'core', 'cli.ts'), new Date(), new Date());
    const stale = run();
    expect([stale.status, stale.stdout]).toEqual([3, 'sources a b\n']);
  }, 60_000);

  it('runs the sources when the build is missing or lists a source that is gone', () => {
    const missing = scratch({ built: false, tsx: true });
    expect(missing.run().stdout).toBe('sources a b\n');
    const gone = scratch({ built: true, tsx: true });
    writeFileSync(
      join(gone.root, 'dist', 'cli-inputs.json'),
      JSON.stringify({ builtAt: Date.now(), inputs: ['core/cli.ts', 'core/removed.ts'] }),
    );
    expect(gone.run().stdout).toBe('sources a b\n');
  }, 60_000);

  it('without tsx: a stale build runs with a warning; no build at all is a clear error (exit 2)', () => {
    const stale = scratch({ built: true, tsx: false });
    utimesSync(join(stale.root, 'core', 'cli.ts'), new Date(), new Date());
    const run = stale.run();
    expect([run.status, run.stdout]).toEqual([4, 'built a b\n']);
    expect(run.stderr).toMatch(/sources changed since dist\/ was built and tsx is not installed/);
    const none = scratch({ built: false, tsx: false }).run();
    expect([none.status, none.stdout]).toEqual([2, '']);
    expect(none.stderr).toMatch(/dist\/cli\.mjs is not built and tsx is not installed: run `npm run build:cli`/);
  }, 60_000);
});
