// Bundles our TypeScript for Electron: main as ESM, preload as CommonJS (sandboxed preloads cannot be ESM).
// Dependencies stay external: electron-builder ships node_modules, and native modules cannot be bundled.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node22', packages: 'external', sourcemap: false, logLevel: 'warning' };
await build({ ...common, entryPoints: ['main/index.ts'], format: 'esm', outfile: 'dist-electron/main.mjs' });
// buildBundleAsync's worker, loaded from beside main.mjs (core/cec/async-build.ts).
await build({ ...common, entryPoints: ['core/cec/build-worker.ts'], format: 'esm', outfile: 'dist-electron/build-worker.mjs' });
// The PII scan workers and the scans' evidence writer, loaded from beside main.mjs (core/pii/pool/spawn.ts).
for (const worker of ['pii-scan-worker', 'evidence-writer-worker']) {
  await build({ ...common, entryPoints: [`core/pii/pool/${worker}.ts`], format: 'esm', outfile: `dist-electron/${worker}.mjs` });
}
// The verifier's folder workers and the build's segment worker (core/cec/spawn-worker.ts; else both run in-thread).
for (const worker of ['core/cec/verify-folder-worker.ts', 'core/cec/segment-range-worker.ts']) {
  const outfile = `dist-electron/${worker.split('/').pop().replace(/\.ts$/, '.mjs')}`;
  await build({ ...common, entryPoints: [worker], format: 'esm', outfile });
}
await build({ ...common, entryPoints: ['preload/index.ts'], format: 'cjs', outfile: 'dist-electron/preload.cjs', external: ['electron'] });
console.log('built dist-electron/main.mjs, its workers and preload.cjs');
