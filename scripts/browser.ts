// Finds the Chromium or Chrome the browser e2e runs in, and installs one when there is none (`npm test` runs
// this first, as `pretest`). Order: CHROMIUM_PATH, the OS's browser, Playwright's own download; then install:
// apt-get when root on Debian/Ubuntu, else `npx playwright install chromium`. Playwright's own download is
// tried after the OS's browser because on locked-down machines only the OS package manager reaches the network.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';

const osCandidates = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/snap/bin/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  ...['PROGRAMFILES', 'PROGRAMFILES(X86)', 'LOCALAPPDATA'].flatMap((v) =>
    process.env[v] ? [`${process.env[v]}\\Google\\Chrome\\Application\\chrome.exe`] : [],
  ),
];

const fixHint =
  'No Chromium or Chrome for the browser e2e: run `npx playwright install chromium` (or, on Debian/Ubuntu, `sudo apt-get install chromium`), or set CHROMIUM_PATH, then `npm test` again.';

/** The browser to launch, or null. */
export const findBrowser = (): string | null => {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (existsSync(fromEnv)) return fromEnv;
    console.error(`CHROMIUM_PATH=${fromEnv} does not exist`);
    return null;
  }
  for (const path of [...osCandidates, chromium.executablePath()]) if (existsSync(path)) return path;
  return null;
};

/** For playwright.config.ts: the browser, or an error that says exactly what to run. */
export const requireBrowser = (): string => {
  const path = findBrowser();
  if (path === null) throw new Error(fixHint);
  return path;
};

const tryRun = (command: string, args: string[]): boolean => {
  try {
    execFileSync(command, args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return true;
  } catch {
    return false;
  }
};

const install = (): void => {
  const debianRoot = process.getuid?.() === 0 && existsSync('/etc/debian_version');
  if (debianRoot) {
    console.log("No Chromium found: installing Debian's (apt-get install chromium)...");
    if (tryRun('apt-get', ['update', '-qq']) && tryRun('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'chromium'])) return;
  }
  console.log('No Chromium found: trying `npx playwright install chromium`...');
  tryRun(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['playwright', 'install', 'chromium']);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  let path = findBrowser();
  if (path === null && !process.env.CHROMIUM_PATH) {
    install();
    path = findBrowser();
  }
  if (path === null) {
    console.error(fixHint);
    process.exit(1);
  }
  console.log(`browser e2e: ${path}`);
}
