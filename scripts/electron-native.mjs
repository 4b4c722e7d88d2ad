// Builds better-sqlite3 for Electron's ABI into .electron-native/, leaving node_modules (the Node build used by
// tests and `svc serve`) untouched. Needs Electron's headers, so it needs the network on first run.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const require = createRequire(import.meta.url);
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version;
const source = resolve('node_modules/better-sqlite3');
const target = resolve('.electron-native', `better-sqlite3-electron-${electronVersion}`);
export const electronBinding = join(target, 'build', 'Release', 'better_sqlite3.node');

export const ensureElectronNative = () => {
  if (existsSync(electronBinding)) return electronBinding;
  mkdirSync(target, { recursive: true });
  cpSync(source, target, { recursive: true, filter: (path) => !path.includes(`${source}/build`) });
  execFileSync(
    process.platform === 'win32' ? 'npx.cmd' : 'npx',
    ['--yes', 'node-gyp', 'rebuild', '--release', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'],
    { cwd: target, stdio: 'inherit' },
  );
  return electronBinding;
};

if (import.meta.url === `file://${process.argv[1]}`) console.log(ensureElectronNative());
