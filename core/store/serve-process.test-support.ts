import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../cli/spawn-svc.test-support.ts';

/** The keys every instance on one database shares (core/cli/shared-keys.ts): random per test run. */
export const sharedKeysEnv = {
  SVC_SESSION_KEY: randomBytes(32).toString('base64url'),
  SVC_SIGNING_KEY: randomBytes(32).toString('base64url'),
} as const;

/** A running `svc serve`: the process, its origin and its one-time login token (read from its stderr). */
export type Served = { readonly child: ChildProcess; readonly origin: string; readonly token: string };

const dataDirs: string[] = [];
const children: ChildProcess[] = [];

/** A private data dir of its own for each process, as each instance of a team server has; removed by stopServed. */
const freshDataDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-serve-pg-'));
  dataDirs.push(dir);
  return dir;
};

/** The environment of a spawned `svc`: this process's, without keys of its own, plus `env`. */
const childEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...process.env,
  SVC_SESSION_KEY: '',
  SVC_SIGNING_KEY: '',
  SVC_LOG_LEVEL: 'warn',
  ...env,
});

/**
 * Starts the real CLI's `svc serve` (bin/svc.js) on a free loopback port with its own data dir (or `dataDir`)
 * and `env` (which names the database). A start-up failure (one `svc serve: ...` line, or an exit) rejects with
 * its stderr.
 */
export const startServe = (env: NodeJS.ProcessEnv, dataDir = freshDataDir()): Promise<Served> => {
  const child = spawn(process.execPath, ['bin/svc.js', 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: repoRoot,
    env: childEnv(env),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const link = /(http:\/\/127\.0\.0\.1:\d+)\/login\?token=([\w-]+)/.exec(stderr);
      if (link?.[1] !== undefined && link[2] !== undefined) resolve({ child, origin: link[1], token: link[2] });
      // A start-up failure is one line; the process may linger (workers already started), so do not wait for its exit.
      if (/^svc serve: /m.test(stderr)) reject(new Error(stderr));
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${stderr}`)));
  });
};

/** Runs `svc ARGS` to its end with its own data dir (or `dataDir`, appended as `--data-dir`) and `env`; its exit code and output. */
export const runSvc = async (
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  dataDir = freshDataDir(),
): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['bin/svc.js', ...args, '--data-dir', dataDir], {
      cwd: repoRoot,
      env: childEnv(env),
      timeout: 180_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
};

/** Kills every process started here (SIGKILL: a test that wants a clean stop sends SIGTERM itself) and removes the data dirs. */
export const stopServed = (): void => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
};
