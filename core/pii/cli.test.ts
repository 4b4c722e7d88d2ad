import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { scanCommand } from './cli.ts';

let dir: string;
let out: string;
let err: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-scan-'));
  out = '';
  err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, content: string | Buffer): string => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const run = (...argv: string[]) => scanCommand.run([...argv, '--data-dir', join(dir, 'data')]);

describe('svc scan', () => {
  it('prints redacted text and exits 1 when PII is found', async () => {
    expect(await run(file('a.txt', 'Write to jane@example.com today.'))).toBe(1);
    expect(out).toBe('Write to <EMAIL_ADDRESS> today.');
  });

  it('prints the JSON reply with --json and exits 0 for clean text', async () => {
    expect(await run(file('b.txt', 'The build passed.'), '--json')).toBe(0);
    expect(JSON.parse(out)).toEqual({ detected: false, entities: [], redacted_text: 'The build passed.', normalized: false });
  });

  it('honours --entities and --threshold', async () => {
    const path = file('c.txt', 'Mail jane@example.com or call +1 415-555-0132.');
    expect(await run(path, '--json', '--entities', 'PHONE_NUMBER')).toBe(1);
    expect(JSON.parse(out).entities.map((e: { type: string }) => e.type)).toEqual(['PHONE_NUMBER']);
  });

  it('finds obfuscated PII and takes --phone-regions (same engine and schema as the HTTP route)', async () => {
    expect(await run(file('f.txt', 'Write to jane\u200b@example.com today.'), '--json')).toBe(1);
    expect(JSON.parse(out)).toMatchObject({ redacted_text: 'Write to <EMAIL_ADDRESS> today.', normalized: true });
    out = '';
    expect(await run(file('g.txt', 'Call (212) 555-0199 today.'), '--entities', 'PHONE_NUMBER', '--phone-regions', 'gb')).toBe(0);
    expect(await run(file('h.txt', 'hello'), '--phone-regions', 'XX')).toBe(2);
    expect(err).toContain('--phone-regions: no numbering plan for this phone region');
  });

  it('exits 2 with a message on errors: missing file, empty input, bad language, bad usage', async () => {
    expect(await run(join(dir, 'missing.txt'))).toBe(2);
    expect(await run(file('empty.txt', ''))).toBe(2);
    expect(err).toContain('missing_field: text');
    expect(await run(file('d.txt', 'hello'), '--language', 'xx')).toBe(2);
    expect(err).toContain('unsupported language: xx');
    expect(await run(file('e.txt', 'hello'), '--threshold', '7')).toBe(2);
    expect(await scanCommand.run([])).toBe(2);
  });

  it('scans binary input without crashing', async () => {
    expect(await run(file('bin', Buffer.from([0, 255, 254, 0x41, 0xc3, 0x28])))).toBe(0);
  });
});
