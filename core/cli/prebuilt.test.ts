import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFCECClient } from '../cec/client.ts';
import { seedDays, tempApp } from '../cec/test-support.ts';
import { heavyLoaded, repoRoot, servedUrl, spawnLogged } from './spawn-svc.test-support.ts';

// The prebuilt CLI (scripts/build-cli.mjs, what `prepare` writes to dist/) built into a scratch directory one
// level deeper than dist/ (inside node_modules/.cache, so packages and package.json are still found upward):
// the package root, the lazily loaded chunks and the build worker must work from there without tsx.
const outdir = join(repoRoot, 'node_modules', '.cache', `svc-cli-test-${process.pid}`);
const key = 'test-signing-key-0123456789abcdef';
const fixture = tempApp();
const dataDir = mkdtempSync(join(tmpdir(), 'svc-prebuilt-'));
let zip = '';

/** `node -e` that runs the built CLI's main with the given arguments (what bin/svc.js does for a fresh build). */
const runner = (args: readonly string[]) => [
  '--input-type=module',
  '-e',
  'const { main } = await import(process.argv[1]); process.exitCode = await main(process.argv.slice(2));',
  join(outdir, 'cli.mjs'),
  ...args,
];

beforeAll(async () => {
  const build = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'build-cli.mjs'), '--outdir', outdir], { encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  await seedDays(fixture.app, 'built', ['2026-04-01', '2026-04-02']);
  zip = (await new SFCECClient({ app: fixture.app }).buildBundle('built', ['2026-04-01', '2026-04-02'])).zip_path;
}, 120_000);
afterAll(() => {
  fixture.cleanup();
  rmSync(outdir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the prebuilt CLI', () => {
  it('lists the sources it was built from, for bin/svc.js to tell a stale build', () => {
    const info = JSON.parse(readFileSync(join(outdir, 'cli-inputs.json'), 'utf8')) as { builtAt: number; inputs: string[] };
    expect(info.inputs).toContain('core/cli.ts');
    expect(info.inputs).toContain('core/cec/verify.ts');
    expect(info.inputs.some((path) => path.includes('node_modules'))).toBe(false);
    expect(info.builtAt).toBeLessThanOrEqual(Date.now());
  });

  it('reads the version from the package root, whatever its depth', () => {
    const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
    const run = spawnLogged(runner(['--version']));
    expect([run.code, run.stdout]).toEqual([0, `${version}\n`]);
  });

  it('verifies a bundle with neither tsx nor any heavy module loaded', () => {
    const run = spawnLogged(runner(['verify', zip, '--key', key]));
    expect(run.stdout).toMatch(/: VALID/);
    expect(run.code).toBe(0);
    expect(run.modules.some((path) => path.startsWith(`file://${outdir}/verify-cli-`))).toBe(true);
    // The chunks' contents are seen (the verifier's sources), so the heavy-module check below is not vacuous.
    expect(run.modules).toContain('core/cec/verify.ts');
    expect(run.modules.filter((path) => path.includes('node_modules/tsx/'))).toEqual([]);
    expect(heavyLoaded(run.modules)).toEqual([]);
    // zod is loaded, but none of its translations but English (scripts/build-cli.mjs, zodEnglishOnly).
    expect(run.modules.some((path) => path.includes('node_modules/zod/v4/classic/'))).toBe(true);
    expect(run.modules.filter((path) => /node_modules\/zod\/v4\/locales\/(?!en\.js$)/.test(path))).toEqual([]);
  }, 60_000);

  it('gives the segment worker none of the app on SQLite: its static imports hold no zod, app or store', () => {
    const held: Record<string, string[]> = JSON.parse(readFileSync(join(outdir, 'cli-chunks.json'), 'utf8'));
    const reached = new Set<string>();
    const walk = (file: string): void => {
      if (reached.has(file)) return;
      reached.add(file);
      // Static imports only: PostgreSQL's openApp is a dynamic import, loaded when the worker needs it.
      for (const [, chunk] of readFileSync(join(outdir, file), 'utf8').matchAll(/^(?:import|export)\b[^;]*?"\.\/([^"]+)"/gm))
        walk(chunk as string);
    };
    walk('segment-range-worker.mjs');
    const sources = [...reached].flatMap((file) => held[file] ?? []);
    expect(sources).toContain('core/cec/range-pass.ts');
    expect(sources.filter((path) => /node_modules\/zod\/|^core\/app\.ts$|^core\/audit\/store\.ts$/.test(path))).toEqual([]);
  });

  it('builds a bundle through the prebuilt build worker, and the bundle verifies', async () => {
    const app = tempApp();
    try {
      await seedDays(app.app, 'worker', ['2026-05-01']);
      const env = { ...process.env, SVC_SIGNING_KEY: key };
      const args = ['build', '--project', 'worker', '--from', '2026-05-01', '--to', '2026-05-01', '--data-dir', app.dir, '--json'];
      app.app.close();
      const built = spawnSync(process.execPath, runner(args), { encoding: 'utf8', env });
      expect(built.status, built.stderr).toBe(0);
      const { zip_path } = JSON.parse(built.stdout) as { zip_path: string };
      const verified = spawnSync(process.execPath, runner(['verify', zip_path, '--key', key]), { encoding: 'utf8' });
      expect([verified.status, verified.stdout]).toEqual([0, expect.stringMatching(/: VALID/)]);
    } finally {
      rmSync(app.dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('serves the API: `svc serve` answers the status route', async () => {
    const child = spawn(process.execPath, runner(['serve', '--port', '0', '--data-dir', dataDir]), {
      env: { ...process.env, SVC_LOG_LEVEL: 'error' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      const url = await servedUrl(child);
      const response = await fetch(`${url}/v1/svc/status`);
      expect(response.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
