import { type ChildProcess, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** Heavy modules `svc --help` and `svc verify` must never load (issue 12): what the lazy command table avoids. */
export const heavyModules = [
  'node_modules/fastify/',
  'node_modules/pdfkit/',
  'node_modules/docx/',
  'node_modules/compromise/',
  'node_modules/chrono-node/',
  'node_modules/libphonenumber-js/',
  'node_modules/oidc-provider/',
  'node_modules/openid-client/',
  'node_modules/xml-crypto/',
  'node_modules/@xmldom/',
  'node_modules/pkijs/',
  'core/pii/default-engine',
  'core/pii/recognizers/',
  'core/pii/ner/',
  'core/cec/dpa/export',
  'core/cec/build.ts',
  'core/http/',
  'core/identity/saml/sp',
];

/**
 * The modules of a log, with each chunk of a prebuilt CLI followed by the sources and library files bundled into it
 * (the build's cli-chunks.json beside the chunk): a bundled library is loaded without a file of its own.
 */
export const withBundledModules = (logged: readonly string[]): string[] =>
  logged.flatMap((entry) => {
    if (!entry.startsWith('file:') || !entry.endsWith('.mjs')) return [entry];
    const chunk = fileURLToPath(entry);
    const map = join(dirname(chunk), 'cli-chunks.json');
    if (!existsSync(map)) return [entry];
    const held = (JSON.parse(readFileSync(map, 'utf8')) as Record<string, string[]>)[basename(chunk)] ?? [];
    return [entry, ...held];
  });

/** The modules a process has loaded so far, read from its module log (see module-log.fixture.mjs). */
export const readModuleLog = (log: string): string[] => {
  try {
    return withBundledModules(readFileSync(log, 'utf8').split('\n').filter(Boolean));
  } catch {
    return []; // nothing loaded through a hook: the assertions on the modules say so
  }
};

/**
 * Runs a real `node ... args` process with the module logger preloaded; returns its exit code, output and the
 * modules it loaded (ESM URLs and CommonJS paths).
 */
export const spawnLogged = (args: readonly string[], env: NodeJS.ProcessEnv = {}) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-modlog-'));
  const log = join(dir, 'modules.log');
  try {
    const run = spawnSync(process.execPath, ['--import', join(repoRoot, 'core', 'cli', 'module-log.fixture.mjs'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, ...env, TEST_MODULE_LOG: log },
      timeout: 120_000,
    });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr, modules: readModuleLog(log) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/** The heavy modules among those loaded. */
export const heavyLoaded = (modules: readonly string[]): string[] =>
  modules.filter((path) => heavyModules.some((heavy) => path.includes(heavy)));

/** The URL a spawned `svc serve` listens on, read from the login link it prints on stderr (rejects if it exits). */
export const servedUrl = (child: ChildProcess): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/login\?token=/.exec(err);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`svc serve exited with ${code}: ${err}`)));
  });
