import { defineConfig } from '@playwright/test';
import { requireBrowser } from '../scripts/browser.ts';

// The OS's Chromium or Chrome, else Playwright's own (scripts/browser.ts; `npm test` installs one if needed).
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results',
  fullyParallel: false,
  workers: 2,
  // One retry on CI only: a loaded 2-core runner can starve a browser step; the list reporter marks it flaky.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: requireBrowser(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
