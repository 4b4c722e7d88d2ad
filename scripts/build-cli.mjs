// The prebuilt `svc` CLI and server (issue 12): core/cli.ts bundled to dist/cli.mjs with one chunk per lazily
// loaded command, so `svc --help` and `svc verify` start without tsx and without the modules they do not use.
// Run by `prepare` (so `npx svc` works right after `npm ci`) and by `npm run build:cli`.
//
// - Dependencies stay external (node_modules ships with the package; better-sqlite3 is native; pino, pdfkit and
//   the fonts resolve files of their own at run time), except the pure-JS libraries on the `svc verify` path
//   (`bundled` below): loading them as hundreds of small ESM files cost about 3x their bundled start-up. Nothing
//   outside our code shares their objects (zod, pkijs), or only through native values (jose's keys).
// - Every core/**/*-worker.ts becomes dist/<name>.mjs beside the chunks, where `new URL('./<name>.mjs',
//   import.meta.url)` finds it (core/cec/async-build.ts).
// - dist/cli-inputs.json lists the sources the build read and when it started: bin/svc.js runs the build only
//   while none of them changed since (docs/decisions.md, "Start-up").
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
// `--outdir DIR` (tests build into a scratch directory inside the package, so the package root is still found).
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg === -1 ? join(root, 'dist') : process.argv[outdirArg + 1];

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  // An install without dev dependencies: bin/svc.js then says how to build or runs the sources.
  console.warn('build-cli: esbuild is not installed (dev dependency); dist/ not built');
  process.exit(0);
}

const workers = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return workers(path);
    return /-worker\.ts$/.test(entry.name) && !/\.(test|fixture)\./.test(entry.name) ? [path] : [];
  });

const bundled = new Set(['zod', 'jose', 'pkijs', 'asn1js', 'ulid', 'env-paths']);
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** Bare imports of our sources are external unless listed; whatever a bundled library imports is bundled with it. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:') || args.importer.includes('/node_modules/')) return undefined;
      return bundled.has(packageName(args.path)) ? undefined : { path: args.path, external: true };
    });
  },
};

const startedAt = Date.now();
rmSync(outdir, { recursive: true, force: true });
const entryPoints = { cli: join(root, 'core', 'cli.ts') };
for (const worker of workers(join(root, 'core'))) entryPoints[worker.split('/').pop().replace(/\.ts$/, '')] = worker;

const result = await esbuild.build({
  entryPoints,
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [externalPackages],
  // CommonJS inside the bundled libraries (pkijs's hashes) calls require() for Node built-ins.
  banner: { js: "import { createRequire as svcCreateRequire } from 'node:module'; const require = svcCreateRequire(import.meta.url);" },
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs)
  .filter((path) => !path.includes('node_modules/'))
  .map((path) => relative(root, join(root, path)));
writeFileSync(join(outdir, 'cli-inputs.json'), `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`);
console.log(`build-cli: dist/cli.mjs and ${Object.keys(entryPoints).length - 1} worker(s) from ${inputs.length} sources`);
