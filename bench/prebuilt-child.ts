// A bench child as the product runs: bundled JavaScript with its worker files beside it (as scripts/build-cli.mjs
// builds dist/), not TypeScript through tsx, whose workers would each pay about a second of loading.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const root = join(import.meta.dirname, '..');

const workers = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return workers(path);
    return /-worker\.ts$/.test(entry.name) && !/\.(test|fixture)\./.test(entry.name) ? [path] : [];
  });

/** Bundles `entry` and every core/**\/*-worker.ts into bench/out/<name>/ (inside the package, so packages resolve). */
export const prebuiltChild = async (entry: string, name: string): Promise<string> => {
  const outdir = join(root, 'bench', 'out', name);
  await build({
    entryPoints: [entry, ...workers(join(root, 'core'))],
    outdir,
    entryNames: '[name]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outExtension: { '.js': '.mjs' },
    banner: {
      js: "import { createRequire as benchCreateRequire } from 'node:module'; const require = benchCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return join(outdir, `${entry.split('/').at(-1)?.replace(/\.ts$/, '')}.mjs`);
};
