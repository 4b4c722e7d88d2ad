import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SFCECClient } from '../cec/client.ts';
import { seedDays, tempApp } from '../cec/test-support.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { commandInfo } from './command-info.ts';
import { commandLoaders } from './commands.ts';
import { heavyLoaded, readModuleLog, repoRoot, servedUrl, spawnLogged } from './spawn-svc.test-support.ts';

// `bin/svc.js` runs the prebuilt CLI when dist/ is fresh (after `npm ci`) and the sources through tsx otherwise:
// these assertions hold for whichever the checkout has; prebuilt.test.ts checks the build on its own.
const bin = `${repoRoot}/bin/svc.js`;
const key = 'test-signing-key-0123456789abcdef';
const fixture = tempApp();
let zip = '';

beforeAll(async () => {
  await seedDays(fixture.app, 'lazy', ['2026-03-01']);
  zip = (await new SFCECClient({ app: fixture.app }).buildBundle('lazy', ['2026-03-01', '2026-03-01'])).zip_path;
}, 60_000);
afterAll(() => fixture.cleanup());

describe('svc loads a command only when it runs', () => {
  it('`svc --help` lists every command without loading any of them (not even SQLite)', () => {
    const run = spawnLogged([bin, '--help']);
    expect(run.code).toBe(0);
    for (const { usage } of Object.values(commandInfo)) expect(run.stdout).toContain(usage);
    expect(run.modules.some((path) => path.endsWith('/bin/svc.js'))).toBe(true);
    expect(heavyLoaded(run.modules)).toEqual([]);
    expect(run.modules.filter((path) => path.includes('better-sqlite3'))).toEqual([]);
  }, 120_000);

  it('`svc verify` verifies without the PII engine, pdfkit, Fastify, the identity providers or pkijs (stub timestamp)', () => {
    const run = spawnLogged([bin, 'verify', zip, '--key', key]);
    expect(run.stdout).toMatch(/: VALID/);
    expect(run.code).toBe(0);
    expect(heavyLoaded(run.modules)).toEqual([]);
    // Explicit trust inputs and a local file: no app, so not even the storage stack (SQLite, migrations, logger).
    expect(run.modules.filter((path) => path.includes('better-sqlite3') || /core\/(app|migrations|log)\.ts$/.test(path))).toEqual([]);
  }, 120_000);

  it("`svc verify` without trust inputs opens the data dir's app (its trust list): the module log sees SQLite load", () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-verify-datadir-'));
    try {
      const run = spawnLogged([bin, 'verify', zip, '--data-dir', dataDir]);
      expect(run.stdout).toMatch(/Bundle cec-/);
      // The logger sees CommonJS loads too, so the absence asserted above is not vacuous.
      expect(run.modules.some((path) => path.includes('node_modules/better-sqlite3/'))).toBe(true);
      expect(heavyLoaded(run.modules)).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('`svc verify --help` prints the usage without loading the command; an unknown command exits 2', () => {
    const help = spawnLogged([bin, 'verify', '--help']);
    expect([help.code, help.stdout.trim()]).toEqual([0, `Usage: ${commandInfo.verify.usage}\n  ${commandInfo.verify.summary}`]);
    expect(help.modules.filter((path) => path.includes('better-sqlite3'))).toEqual([]);
    const unknown = spawnLogged([bin, 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown command: frobnicate/);
  }, 120_000);

  it('`svc serve` answers status and entity types without the NER (compromise); the first in-process scan loads it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-serve-modlog-'));
    const log = join(dir, 'modules.log');
    const app = tempApp();
    const key = (await createApiKey(app.app, { tier: 'api', scopes: [], name: 'lazy' })).secret;
    app.app.close();
    // No scan workers: the main thread itself must not load the NER until a scan needs it.
    const child = spawn(
      process.execPath,
      ['--import', join(repoRoot, 'core', 'cli', 'module-log.fixture.mjs'), bin, 'serve', '--port', '0', '--data-dir', app.dir],
      {
        env: { ...process.env, SVC_PII_WORKERS: '0', SVC_LOG_LEVEL: 'error', TEST_MODULE_LOG: log },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    try {
      const url = await servedUrl(child);
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const status = (await (await fetch(`${url}/v1/svc/status`)).json()) as { sf_pii: { entity_types_loaded: string[] } };
      expect(status.sf_pii.entity_types_loaded).toEqual(expect.arrayContaining(['PERSON', 'EMAIL_ADDRESS', 'US_SSN']));
      const types = await fetch(`${url}/api/ops/pii.entityTypes`, { method: 'POST', headers, body: '{}' });
      expect(((await types.json()) as { value: { entity_types: string[] } }).value.entity_types).toContain('PERSON');
      const compromise = (modules: string[]) => modules.filter((path) => path.includes('node_modules/compromise/'));
      expect(compromise(readModuleLog(log))).toEqual([]);
      const scan = await fetch(`${url}/v1/scan/pii`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: 'Maria Gonzalez lives in Madrid.' }),
      });
      expect(((await scan.json()) as { redacted_text: string }).redacted_text).toBe('<PERSON> lives in <LOCATION>.');
      expect(compromise(readModuleLog(log)).length).toBeGreaterThan(0);
    } finally {
      // The child still writes its module log and data dir while it shuts down: remove them once it has exited.
      const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
      rmSync(app.dir, { recursive: true, force: true });
    }
  }, 180_000);

  it('every entry of the command table loads the command of its own name', async () => {
    for (const [name, load] of Object.entries(commandLoaders)) {
      const command = await load();
      expect([name, command.name, command.usage]).toEqual([name, name, commandInfo[command.name].usage]);
    }
  }, 120_000);
});
