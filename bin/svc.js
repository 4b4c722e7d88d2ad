#!/usr/bin/env node
// The `svc` command. Runs the prebuilt CLI (dist/cli.mjs, built by `prepare` on `npm ci` and by `npm run
// build:cli`) while it is up to date: no source it was built from changed after the build started. Otherwise
// (development: a source was edited since) it runs the TypeScript sources through tsx, so a stale build never
// runs old code. Without tsx (an install without dev dependencies) a stale build runs with a warning.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
/** The package root as a path ending in `/`: a URL per source (hundreds) cost more start-up than the stat calls. */
const rootPath = fileURLToPath(root);
const built = new URL('dist/cli.mjs', root);

/** 'fresh', 'stale' or 'missing': the build against the modification times of the sources it lists. */
const buildState = () => {
  let info;
  try {
    info = JSON.parse(readFileSync(new URL('dist/cli-inputs.json', root), 'utf8'));
    statSync(built);
  } catch {
    return 'missing';
  }
  for (const input of info.inputs) {
    try {
      if (statSync(rootPath + input).mtimeMs > info.builtAt) return 'stale';
    } catch {
      return 'stale'; // a source the build read is gone
    }
  }
  return 'fresh';
};

const loadSources = async () => {
  try {
    const { register } = await import('tsx/esm/api');
    register();
  } catch {
    return null;
  }
  return import('../core/cli.ts');
};

const state = buildState();
let cli = state === 'fresh' ? await import(built.href) : await loadSources();
if (cli === null && state === 'stale') {
  process.stderr.write('svc: sources changed since dist/ was built and tsx is not installed: running the old build (npm run build:cli)\n');
  cli = await import(built.href);
}
if (cli === null) {
  process.stderr.write('svc: dist/cli.mjs is not built and tsx is not installed: run `npm run build:cli` (needs the dev dependencies)\n');
  process.exitCode = 2;
} else process.exitCode = await cli.main(process.argv.slice(2));
