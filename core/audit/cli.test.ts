import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { openApp } from '../app.ts';
import { runCli } from '../cli/test-support.ts';
import { testBackends } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';
import { importCommand } from './cli.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

let dir = '';
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `svc import` with stdout/stderr captured. */
const runImport = (argv: string[]) => runCli(importCommand, argv);

/** The data dir's app as the CLI opens it (openApp: SVC_DATABASE_URL from the environment, else the SQLite file). */
const openDataDir = () => openApp({ dataDir: join(dir, 'data') });

describe.each(testBackends)('svc import on $name', (backend) => {
  // PostgreSQL: the command finds its database as in production, through SVC_DATABASE_URL (a fresh one per test).
  beforeEach(async () => {
    if (backend.name === 'postgres') vi.stubEnv('SVC_DATABASE_URL', await freshPostgresUrl());
  });

  it('imports a file into the data dir with a summary, using --project for bare lines', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const file = join(dir, 'evidence.ndjson');
    const bare = ({ project_id: _, ...rest }: ReturnType<typeof exampleEvidence>) => rest;
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify(bare(exampleEvidence(i, 'x')))).join('\n'));
    const result = await runImport([file, '--project', 'demo', '--data-dir', join(dir, 'data')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported 12 records from 12 lines in [\d.]+ s\n {2}demo: seq 1\.\.12, head [0-9a-f]{64}\n$/);
    const app = await openDataDir();
    expect(app.database.dialect).toBe(backend.name);
    expect(await verifyChain(app, 'demo')).toMatchObject({ valid: true, checked: 12 });
    await app.close();
  });

  it('exits 1 listing bad lines and imports nothing; 2 on usage errors', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, [JSON.stringify(exampleEvidence(0, 'p')), '[1,2]', ''].join('\n'));
    const result = await runImport([file, '--data-dir', join(dir, 'data'), '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 2: ');
    expect(result.stdout).toBe('');
    const app = await openDataDir();
    expect(await app.database.one(z.object({ n: z.coerce.number() }), 'SELECT count(*) AS n FROM audit_records')).toEqual({ n: 0 });
    await app.close();
    expect((await runImport([])).code).toBe(2);
  });
});
