import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dpaCommand } from './cli.ts';
import { docxToText, sampleRequest } from './test-support.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dpa-cli-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const runCli = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    return { code: await dpaCommand.run(argv), stdout: out.join(''), stderr: err.join('') };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
};

describe('svc dpa', () => {
  it('writes the requested export and prints the document id', async () => {
    const input = join(dir, 'input.json');
    await writeFile(input, JSON.stringify(sampleRequest()));
    const output = join(dir, 'out.docx');
    const result = await runCli(['--json', input, '--format', 'docx', '-o', output, '--data-dir', join(dir, 'data')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^dpa-[0-9A-Z]{26}\n$/);
    expect(await docxToText(await readFile(output))).toContain('Annex II: Technical and organisational measures');
  });

  it('exits 2 with the validation message for bad input, and with usage for bad options', async () => {
    const input = join(dir, 'bad.json');
    await writeFile(input, JSON.stringify({ ...sampleRequest(), retention_period_days: -3 }));
    const bad = await runCli(['--json', input, '--format', 'pdf', '-o', join(dir, 'x.pdf'), '--data-dir', join(dir, 'data')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('retention_period_days: must be a positive number of days');
    const usage = await runCli(['--json', input, '--format', 'odt', '-o', join(dir, 'x.odt')]);
    expect(usage).toMatchObject({ code: 2 });
    expect(usage.stderr).toContain('Usage: svc dpa');
  });
});
