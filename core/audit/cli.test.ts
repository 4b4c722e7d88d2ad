import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../app.ts';
import { runCli } from '../cli/test-support.ts';
import { importCommand } from './cli.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

let dir = '';
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs `svc import` with stdout/stderr captured. */
const runImport = (argv: string[]) => runCli(importCommand, argv);

describe('svc import', () => {
  it('imports a file into the data dir with a summary, using --project for bare lines', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const file = join(dir, 'evidence.ndjson');
    const bare = ({ project_id: _, ...rest }: ReturnType<typeof exampleEvidence>) => rest;
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => JSON.stringify(bare(exampleEvidence(i, 'x')))).join('\n'));
    const result = await runImport([file, '--project', 'demo', '--data-dir', join(dir, 'data')]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Imported 12 records from 12 lines in [\d.]+ s\n {2}demo: seq 1\.\.12, head [0-9a-f]{64}\n$/);
    const app = createApp({ dataDir: join(dir, 'data'), env: {} });
    expect((await verifyChain(app, 'demo')).valid).toBe(true);
    app.close();
  });

  it('exits 1 listing bad lines and imports nothing; 2 on usage errors', async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-cli-'));
    const file = join(dir, 'bad.ndjson');
    writeFileSync(file, [JSON.stringify(exampleEvidence(0, 'p')), '[1,2]', ''].join('\n'));
    const result = await runImport([file, '--data-dir', join(dir, 'data'), '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('line 2: ');
    expect(result.stdout).toBe('');
    const app = createApp({ dataDir: join(dir, 'data'), env: {} });
    expect((app.db.prepare('SELECT count(*) AS n FROM audit_records').get() as { n: number }).n).toBe(0);
    app.close();
    expect((await runImport([])).code).toBe(2);
  });
});
