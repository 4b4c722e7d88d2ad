import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import type { AppError } from '../errors.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { exampleEvidence } from './examples.ts';
import { importNdjson } from './import.ts';
import { ndjsonLines } from './ndjson.ts';
import { appendEvidence } from './store.ts';
import { verifyChain } from './verify.ts';

const line = (i: number, project = 'p'): string => JSON.stringify(exampleEvidence(i, project));
const failure = async (promise: Promise<unknown>): Promise<AppError> => {
  try {
    await promise;
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a rejection');
};

describe('ndjsonLines', () => {
  it('splits LF and CRLF lines across chunk borders, even inside a UTF-8 character', async () => {
    const bytes = Buffer.from('{"a":"ü☃"}\r\n\n{"b":1}\n{"c":"😀"}', 'utf8');
    const oneByteChunks = Array.from(bytes, (b) => Uint8Array.of(b));
    const lines = [];
    for await (const l of ndjsonLines(oneByteChunks)) lines.push([l.number, l.text]);
    expect(lines).toEqual([
      [1, '{"a":"ü☃"}'],
      [2, ''],
      [3, '{"b":1}'],
      [4, '{"c":"😀"}'],
    ]);
  });

  it('refuses a line longer than the cap', async () => {
    const error = await failure(
      (async () => {
        for await (const _ of ndjsonLines([`{"a":1}\n${'x'.repeat(1024 * 1024 + 10)}`])) void _;
      })(),
    );
    expect(error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(error.message).toMatch(/^line 2:/);
  });
});

describe.each(testBackends)('importNdjson on $name', (backend) => {
  const t = appPerTest(backend);
  let app: App;
  const open = (): void => {
    app = t().app;
  };
  const rows = async (table = 'audit_records'): Promise<number> =>
    (await app.database.one(z.object({ n: z.number() }), `SELECT count(*) AS n FROM ${table}`))?.n ?? -1;

  it('imports every line into valid chains and reports the spans', async () => {
    open();
    await appendEvidence(app, [{ ...exampleEvidence(0, 'p'), record_id: 'earlier' }]);
    const text = `${Array.from({ length: 4500 }, (_, i) => line(i)).join('\n')}\n${line(0, 'q')}\n\n`;
    const progress: number[] = [];
    const result = await importNdjson(app, [text], { onProgress: (done) => progress.push(done) });
    expect(result).toMatchObject({ imported: 4501, lines: 4502 });
    expect(result.projects).toEqual([
      expect.objectContaining({ project_id: 'p', first_seq: 2, last_seq: 4501 }),
      expect.objectContaining({ project_id: 'q', first_seq: 1, last_seq: 1 }),
    ]);
    expect(progress.length).toBeGreaterThan(1);
    expect((await verifyChain(app, 'p')).valid).toBe(true);
    expect(await rows('audit_staging')).toBe(0);
  });

  it('chains more lines than one staging page and one INSERT, and names a duplicate far into the file', async () => {
    open();
    const many = Array.from({ length: 12_000 }, (_, i) => line(i));
    const result = await importNdjson(app, [many.join('\n')]);
    expect(result.projects).toEqual([expect.objectContaining({ project_id: 'p', first_seq: 1, last_seq: 12_000 })]);
    expect((await verifyChain(app, 'p')).valid).toBe(true);
    const again = [...Array.from({ length: 7000 }, (_, i) => line(i, 'q')), line(6500, 'q')];
    const error = await failure(importNdjson(app, [again.join('\n')]));
    expect(error.message).toMatch(/^line 7001: record_id q-6500 already exists/);
    expect(await rows()).toBe(12_000);
    expect(await rows('audit_staging')).toBe(0);
  }, 120_000);

  it('reports bad lines with their numbers and writes nothing', async () => {
    open();
    const text = [line(0), '{oops', line(1), JSON.stringify({ ...exampleEvidence(2, 'p'), schema_key: 'drift' }), line(3)].join('\n');
    const error = await failure(importNdjson(app, [text]));
    expect(error.code).toBe('VALIDATION');
    expect(error.detail?.errors).toEqual([
      { line: 2, message: 'not valid JSON' },
      { line: 4, message: expect.stringMatching(/^schema_key: /) },
    ]);
    expect(error.message).toMatch(/^2 invalid line\(s\), nothing was imported; line 2: not valid JSON/);
    expect(await rows()).toBe(0);
    expect(await rows('audit_staging')).toBe(0);
  });

  it('names the line of a duplicate record_id and writes nothing', async () => {
    open();
    await appendEvidence(app, [exampleEvidence(7, 'p')]);
    const error = await failure(importNdjson(app, [[line(1), line(2), line(7)].join('\n')]));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toMatch(/^line 3: record_id p-7 already exists/);
    expect(await rows()).toBe(1);
  });

  it('fills a default project for lines without one', async () => {
    open();
    const { project_id: _, ...bare } = exampleEvidence(0, 'x');
    const result = await importNdjson(app, [JSON.stringify(bare)], { defaultProjectId: 'cli-project' });
    expect(result.projects[0]?.project_id).toBe('cli-project');
    const error = await failure(importNdjson(app, [JSON.stringify(bare)]));
    expect(error.message).toMatch(/line 1: project_id/);
  });
});

// SQLite stages in a TEMP table that dies with its connection (the kill test below); PostgreSQL in a real table.
describe.each(testBackends.filter((backend) => backend.name === 'postgres'))('import staging on $name', (backend) => {
  const t = appPerTest(backend);
  it('removes staging rows an import killed more than a day ago left behind', async () => {
    const { app } = t();
    const stale = `${encodeTime(Date.now() - 25 * 3600 * 1000, 10)}${'0'.repeat(16)}`;
    const recent = `${encodeTime(Date.now() - 3600 * 1000, 10)}${'0'.repeat(16)}`;
    for (const id of [stale, recent]) {
      await app.database.run(
        'INSERT INTO audit_staging (import_id, line, record_id, project_id, schema_key, timestamp, payload) VALUES (?, 1, ?, ?, ?, ?, ?)',
        [id, 'r', 'p', 'score_records', '2026-01-01T00:00:00.000Z', '{}'],
      );
    }
    await importNdjson(app, [line(0)]);
    const left = await app.database.all(z.object({ import_id: z.string() }), 'SELECT import_id FROM audit_staging');
    expect(left.map((row) => row.import_id)).toEqual([recent]);
  });
});

describe('an import killed mid-way', () => {
  it('leaves no staging rows and no records behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'audit-kill-'));
    try {
      createApp({ dataDir: dir, env: {} }).close();
      const worker = join(import.meta.dirname, 'import-kill-worker.fixture.ts');
      const child = spawn(process.execPath, ['--import', 'tsx', worker, dir], { stdio: 'ignore' });
      const deadline = Date.now() + 60_000;
      while (!existsSync(join(dir, 'staging')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(join(dir, 'staging'))).toBe(true);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const app = createApp({ dataDir: dir, env: {} });
      try {
        const count = (sql: string) => (app.db.prepare(sql).get() as { n: number }).n;
        expect(count('SELECT count(*) AS n FROM main.audit_staging')).toBe(0);
        expect(count('SELECT count(*) AS n FROM audit_records')).toBe(0);
      } finally {
        app.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
