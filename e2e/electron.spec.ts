import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _electron as electron } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const root = join(import.meta.dirname, '..');

/** The installed Electron binary, without triggering its download (requiring 'electron' would try). */
const electronBinary = (): string | null => {
  const electronDir = join(root, 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const binary = join(electronDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? binary : null;
};

test('the desktop app opens its window and lists API keys over IPC', async () => {
  const binary = electronBinary();
  if (binary === null) {
    console.log(
      'SKIPPED electron.spec: no Electron binary here (its first-run download needs the network); the browser specs cover the renderer.',
    );
    test.skip(true, 'Electron binary not available on this machine');
    return;
  }
  execFileSync('npm', ['run', 'build:electron'], { cwd: root, stdio: 'inherit' });
  const app = await electron.launch({ executablePath: binary, args: ['.'], cwd: root });
  const window = await app.firstWindow();
  await window.getByRole('link', { name: 'API Keys' }).click();
  await expect(window.getByRole('heading', { name: 'API Keys' })).toBeVisible();
  await app.close();
});
