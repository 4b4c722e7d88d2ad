import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A throw-away PostgreSQL server for the tests: the `initdb` and `postgres` binaries of the machine (PATH, or
 * Debian's /usr/lib/postgresql/<version>/bin, which `.ci/run` installs), a data dir under the run's temp dir,
 * a free loopback port, password (SCRAM) authentication, no unix socket. PostgreSQL refuses to run as root, so
 * as root both run as `nobody`. Durability settings are off: the tests kill our processes, never this server.
 */
export type ServerInfo = { readonly url: string; readonly pid: number } | { readonly error: string };

const serverFile = (root: string): string => join(root, 'server.json');

/** The directory holding both `initdb` and `postgres`, newest version first; undefined when there is none. */
export const postgresBinDir = (): string | undefined => {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((version) => `/usr/lib/postgresql/${version}/bin`)
    : [];
  const dirs = [...(process.env['PATH'] ?? '').split(delimiter).filter(Boolean), ...debian];
  return dirs.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
};

const nobody = (): { uid: number; gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('nobody:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('running as root and there is no user "nobody" to run PostgreSQL as');
  return { uid: Number(uid), gid: Number(gid) };
};

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const waitUntilReady = async (url: string, exited: () => string | undefined): Promise<void> => {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      const exit = exited();
      if (exit !== undefined) throw new Error(exit);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 120 s: ${String(error)}`);
      await sleep(200);
    }
  }
};

const start = async (root: string, bin: string): Promise<{ url: string; pid: number }> => {
  const dir = join(root, 'server');
  mkdirSync(dir, { mode: 0o700 });
  const user = nobody();
  if (user !== undefined) {
    chownSync(dir, user.uid, user.gid);
    chmodSync(root, 0o711); // nobody may pass through the run's dir to its own, but not list it
  }
  const as = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  const password = randomBytes(18).toString('base64url');
  const pwfile = join(dir, 'pwfile');
  writeFileSync(pwfile, password, { mode: 0o600 });
  if (user !== undefined) chownSync(pwfile, user.uid, user.gid);
  const env = { ...process.env, HOME: dir, LC_ALL: 'C' };
  await promisify(execFile)(
    join(bin, 'initdb'),
    [
      '-D',
      join(dir, 'data'),
      '-U',
      'svc_test',
      `--pwfile=${pwfile}`,
      '--auth=scram-sha-256',
      '-E',
      'UTF8',
      '--no-sync',
      '--no-instructions',
    ],
    { ...as, env },
  );
  const port = await freePort();
  const log = openSync(join(root, 'postgres.log'), 'a');
  const settings = [
    'listen_addresses=127.0.0.1',
    'unix_socket_directories=',
    'fsync=off',
    'synchronous_commit=off',
    'full_page_writes=off',
    'max_connections=300',
  ];
  const child = spawn(join(bin, 'postgres'), ['-D', join(dir, 'data'), '-p', String(port), ...settings.flatMap((s) => ['-c', s])], {
    ...as,
    env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  let exit: string | undefined;
  child.once('exit', (code) => {
    exit = `postgres exited with code ${code}; see ${join(root, 'postgres.log')}`;
  });
  child.unref();
  const url = `postgres://svc_test:${password}@127.0.0.1:${port}/postgres`;
  await waitUntilReady(url, () => exit);
  if (child.pid === undefined) throw new Error('postgres did not start');
  return { url, pid: child.pid };
};

/**
 * The run's shared server (core/test-support/postgres-global-setup.ts makes `root`, and stops the server at the
 * end of the run). The first test file that needs it starts it; the others wait for its address.
 */
export const sharedServer = async (root: string): Promise<ServerInfo> => {
  const lock = join(root, 'starting');
  let starter = false;
  try {
    mkdirSync(lock);
    starter = true;
  } catch {
    // Another test file is starting it.
  }
  if (starter) {
    const bin = postgresBinDir();
    let info: ServerInfo;
    try {
      if (bin === undefined) throw new Error('no PostgreSQL binaries (initdb, postgres) on PATH or in /usr/lib/postgresql/*/bin');
      info = await start(root, bin);
    } catch (error) {
      info = { error: error instanceof Error ? error.message : String(error) };
    }
    writeFileSync(`${serverFile(root)}.tmp`, JSON.stringify(info), { mode: 0o600 });
    renameSync(`${serverFile(root)}.tmp`, serverFile(root));
    return info;
  }
  const deadline = Date.now() + 180_000;
  while (!existsSync(serverFile(root))) {
    if (Date.now() > deadline) return { error: 'timed out waiting for another test file to start PostgreSQL' };
    await sleep(200);
  }
  return JSON.parse(readFileSync(serverFile(root), 'utf8')) as ServerInfo;
};

/** Stops the run's server, if one was started (the global setup's teardown). */
export const stopSharedServer = async (root: string): Promise<void> => {
  if (!existsSync(serverFile(root))) return;
  const info = JSON.parse(readFileSync(serverFile(root), 'utf8')) as ServerInfo;
  if (!('pid' in info)) return;
  const alive = (): boolean => {
    try {
      process.kill(info.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // SIGINT: PostgreSQL's fast shutdown (ends sessions, no waiting for clients).
  if (alive()) process.kill(info.pid, 'SIGINT');
  for (let i = 0; i < 100 && alive(); i++) await sleep(100);
  if (alive()) process.kill(info.pid, 'SIGKILL');
};
