import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { envSetting } from '../config/env-settings.ts';
import { freshPostgresUrl, postgresUnavailable, wrongPasswordUrl } from '../test-support/postgres.ts';
import { connectPostgres } from './postgres-database.ts';

const secret = 'Sup3r-secret-pw';
const source = 'SVC_DATABASE_URL';

/** A loopback port nobody listens on (bound, read, released). */
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 1));
    });
  });

/** `svc serve` as an operator starts it; resolves to its exit code and stderr. */
const serve = async (databaseUrl: string): Promise<{ code: number; stderr: string }> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-serve-pg-'));
  try {
    await promisify(execFile)(process.execPath, ['bin/svc.js', 'serve', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, SVC_DATABASE_URL: databaseUrl },
      timeout: 150_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

describe('SVC_DATABASE_URL', () => {
  it('accepts postgres:// and postgresql:// URLs and refuses anything else, naming the setting and not the password', () => {
    expect(envSetting({ SVC_DATABASE_URL: `postgres://svc:${secret}@db.internal:5432/svc` }, 'databaseUrl')).toContain('db.internal');
    expect(envSetting({ SVC_DATABASE_URL: 'postgresql:///svc?host=/var/run/postgresql' }, 'databaseUrl')).toContain('/var/run');
    expect(envSetting({}, 'databaseUrl')).toBe('');
    for (const bad of [`mysql://svc:${secret}@db/svc`, `postgres://svc:${secret}@/svc`, `svc:${secret}@db/svc`, 'postgres:']) {
      let message = '';
      try {
        envSetting({ SVC_DATABASE_URL: bad }, 'databaseUrl');
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message, bad).toMatch(/^SVC_DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL/);
      expect(message).not.toContain(secret);
    }
  });

  it('an unreachable server is one line naming the setting and the URL without its password', async () => {
    const port = await closedPort();
    const attempt = connectPostgres(`postgres://svc:${secret}@127.0.0.1:${port}/svc`, { source, connectTimeoutMs: 5000 });
    await expect(attempt).rejects.toThrow(
      `SVC_DATABASE_URL: cannot connect to postgres://svc:***@127.0.0.1:${port}/svc: connection refused`,
    );
  });

  it.skipIf(postgresUnavailable !== undefined)('wrong credentials and a missing database are refused the same way', async () => {
    const wrong = await wrongPasswordUrl();
    const password = new URL(wrong).password;
    const error = await connectPostgres(wrong, { source }).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(
      /^SVC_DATABASE_URL: cannot connect to postgres:\/\/svc_test:\*\*\*@127\.0\.0\.1:\d+\/postgres: authentication failed/,
    );
    expect((error as Error).message).not.toContain(password);
    const missing = new URL(await freshPostgresUrl());
    missing.pathname = '/no_such_database';
    await expect(connectPostgres(missing.toString(), { source })).rejects.toThrow(/no_such_database: database does not exist$/);
  });

  it('svc serve refuses to start with it, in one line without a stack trace or the password, while domains remain to move', async () => {
    const port = await closedPort();
    // Two real processes (tsx compiles the core on start: slow on a loaded machine, hence the long timeout).
    const [refused, malformed] = await Promise.all([
      serve(`postgres://svc:${secret}@127.0.0.1:${port}/svc`),
      serve(`mysql://svc:${secret}@db/svc`),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^svc serve: SVC_DATABASE_URL: PostgreSQL support is being built; not yet moved: \w/);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.trim()).toBe('svc serve: SVC_DATABASE_URL: expected a postgres:// or postgresql:// URL with a host');
    for (const run of [refused, malformed]) {
      expect(run.stderr).not.toContain(secret);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  }, 180_000);
});
