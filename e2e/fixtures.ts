import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { type OpenAiTestServer, startOpenAiTestServer } from '../core/chat/test/openai-test-server.ts';

const root = join(import.meta.dirname, '..');
export const artifactsDir = join(root, 'e2e', 'artifacts');
mkdirSync(artifactsDir, { recursive: true });

export type Workbench = {
  /** e.g. http://127.0.0.1:41234 */
  readonly url: string;
  readonly dataDir: string;
  /** An admin API key for API calls from the test (seeding data). */
  readonly adminKey: string;
  /** The local OpenAI-compatible provider the server's chat setting points at. */
  readonly provider: OpenAiTestServer;
  /** A fresh one-time login link (each can be used once). */
  loginUrl(): Promise<string>;
  /** Signs the page in through a one-time login link and waits for the shell. */
  login(page: Page): Promise<void>;
  /** Calls an op with the admin key, returning its value (throws on an error envelope). */
  call<T = unknown>(name: string, input: unknown): Promise<T>;
  /** Extra environment for the server: declare with `test.use({ serverEnv: {...} })`. */
};

const svc = (args: string[], env: NodeJS.ProcessEnv): string =>
  execFileSync(process.execPath, [join(root, 'bin', 'svc.js'), ...args], { env, encoding: 'utf8' }).trim();

type WorkerFixtures = { workbench: Workbench; serverEnv: Record<string, string> };

/**
 * One real `svc serve` per worker (real SQLite in a temp dir, real loopback listener, the built renderer),
 * plus a local chat provider. Specs sign in through the one-time login link, as a user does.
 */
export const test = base.extend<{ screenshotTo: (name: string) => Promise<void> }, WorkerFixtures>({
  serverEnv: [{}, { scope: 'worker', option: true }],
  workbench: [
    async ({ serverEnv }, use) => {
      const provider = await startOpenAiTestServer();
      const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
      const env = {
        ...process.env,
        SVC_DATA_DIR: dataDir,
        SVC_CHAT_ENDPOINT: provider.url,
        SVC_CHAT_MODEL: 'test-model',
        SVC_LOG_LEVEL: 'warn',
        ...serverEnv,
      };
      const adminKey = svc(['keys', 'create', '--tier', 'admin', '--name', 'e2e', '--data-dir', dataDir], env);
      const child: ChildProcess = spawn(process.execPath, [join(root, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
        env,
        stdio: ['ignore', 'inherit', 'pipe'],
      });
      const firstLink = await new Promise<string>((resolve, reject) => {
        let out = '';
        // Generous: on a loaded 2-core runner, `svc keys create` plus a cold `svc serve` can take tens of seconds.
        const timer = setTimeout(() => {
          child.kill('SIGKILL'); // no orphaned server when the fixture gives up
          reject(new Error(`svc serve did not start: ${out}`));
        }, 90_000);
        // The one-time link goes to stderr, never into the JSON log on stdout.
        child.stderr?.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)\/login\?token=\S+/.exec(out);
          if (match) {
            clearTimeout(timer);
            resolve(match[0]);
          }
        });
        child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${out}`)));
      });
      const url = new URL(firstLink).origin;
      const links = [firstLink];
      const call = async <T>(name: string, input: unknown): Promise<T> => {
        const response = await fetch(`${url}/api/ops/${name}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        });
        const result = (await response.json()) as { ok: boolean; value?: T; error?: { message: string } };
        if (!result.ok) throw new Error(`${name}: ${result.error?.message}`);
        return result.value as T;
      };
      const loginUrl = async (): Promise<string> => {
        const link = links.pop();
        if (link) return link;
        // Later sign-ins: an admin key through the break-glass form is what a real user would do.
        return `${url}/`;
      };
      const login = async (page: Page): Promise<void> => {
        const link = await loginUrl();
        await page.goto(link);
        if (link.endsWith('/')) {
          await page.getByLabel('API key').fill(adminKey);
          await page.getByRole('button', { name: 'Sign in with API key' }).click();
        }
        await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
      };
      await use({ url, dataDir, adminKey, provider, loginUrl, login, call });
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await provider.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: 'worker', timeout: 150_000 },
  ],
  screenshotTo: async ({ page }, use) => {
    await use(async (name) => {
      await page.screenshot({ path: join(artifactsDir, `${name}.png`), fullPage: true });
    });
  },
});

export { expect };
