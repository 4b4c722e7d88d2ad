// The prebuilt `svc` CLI and server (issue 12): core/cli.ts bundled to dist/cli.mjs with one chunk per lazily
// loaded command, so `svc --help`, `svc verify` and `svc serve` start without tsx and without the modules they
// do not use. Run by `prepare` (so `npx svc` works right after `npm ci`) and by `npm run build:cli`.
//
// - Dependencies are bundled into the chunks (node_modules still ships with the package): loading a library as
//   tens or hundreds of small files (fastify and its plugins, zod, jose, the SAML XML stack, the PII
//   recognizers' libraries) cost several times its bundled start-up, most of `svc serve`'s time to answer.
//   External (`external` below) are what cannot be bundled: native addons, libraries that read their own data
//   files at run time, and the AWS SDK (large; loaded only for s3:// storage, so bundling would only slow the
//   build).
// - Every core/**/*-worker.ts becomes dist/<name>.mjs beside the chunks, where `new URL('./<name>.mjs',
//   import.meta.url)` finds it (core/cec/async-build.ts, core/pii/pool/spawn.ts).
// - dist/cli-chunks.json says which sources and library files each chunk holds (for the start-up tests).
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

const external = [
  'better-sqlite3', // native addon
  'pdfkit', // reads its AFM font metrics from files beside its code
  'dejavu-fonts-ttf', // font files, resolved by path (core/cec/dpa/fonts.ts)
  '@aws-sdk/*',
];

// `import process from 'node:process'` (env-paths, which `svc verify` loads for the data dir) goes through Node's
// ESM facade of the built-in, which reads every property of `process` and so creates process.stdin: tens of ms of
// start-up for a stream no command reads. The global is the same object, so the import resolves to it instead.
const processGlobal = {
  name: 'process-global',
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    build.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({ contents: 'module.exports = process;', loader: 'js' }));
  },
};

// zod's `z` namespace carries `z.locales` (and `z.core.locales`), every translation of its error messages (64 modules, ~1/3 of the
// bundled library); esbuild keeps a namespace that is used as a value whole, so each command that validates
// anything parsed them all at start-up. Nothing here selects a locale (messages stay English, which zod registers
// itself), so the bundle's `z.locales` holds English only.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)$/.test(args.resolveDir) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: "export { default as en } from 'zod/v4/locales/en.js';",
      resolveDir: root,
      loader: 'js',
    }));
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
  external,
  plugins: [processGlobal, zodEnglishOnly],
  // CommonJS inside the bundled libraries calls require() for Node built-ins and the external packages.
  banner: { js: "import { createRequire as svcCreateRequire } from 'node:module'; const require = svcCreateRequire(import.meta.url);" },
  outExtension: { '.js': '.mjs' },
  metafile: true,
  logLevel: 'warning',
});
const inputs = Object.keys(result.metafile.inputs)
  .filter((path) => !path.includes('node_modules/') && !/^(process-global|zod-english-only):/.test(path))
  .map((path) => relative(root, join(root, path)));
writeFileSync(join(outdir, 'cli-inputs.json'), `${JSON.stringify({ builtAt: startedAt, inputs }, null, 1)}\n`);
// What each output file holds (sources and bundled library files), for tests that check which modules a command
// loads: inside a bundle they are chunks, not files (core/cli/spawn-svc.test-support.ts).
const chunks = Object.fromEntries(
  Object.entries(result.metafile.outputs).map(([output, { inputs: held }]) => [
    relative(outdir, join(root, output)),
    Object.keys(held).map((path) => relative(root, join(root, path))),
  ]),
);
writeFileSync(join(outdir, 'cli-chunks.json'), `${JSON.stringify(chunks)}\n`);
console.log(`build-cli: dist/cli.mjs and ${Object.keys(entryPoints).length - 1} worker(s) from ${inputs.length} sources`);
