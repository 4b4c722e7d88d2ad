// `npm start`: the desktop app. Electron's binary is fetched on first launch; where that is impossible (no
// network), say so and point to the headless mode instead of failing obscurely.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { ensureElectronNative } from './electron-native.mjs';

const require = createRequire(import.meta.url);
let electronPath;
try {
  electronPath = require('electron');
} catch (error) {
  console.error(`Electron is not available here (${error.message}).\nRun the headless workbench instead: npm run serve`);
  process.exit(1);
}
let nativeBinding;
try {
  nativeBinding = ensureElectronNative();
} catch (error) {
  console.error(`Could not build better-sqlite3 for Electron (${error.message}).\nRun the headless workbench instead: npm run serve`);
  process.exit(1);
}
const child = spawn(electronPath, ['.'], { stdio: 'inherit', env: { ...process.env, SVC_SQLITE_NATIVE_BINDING: nativeBinding } });
child.on('exit', (code) => process.exit(code ?? 0));
