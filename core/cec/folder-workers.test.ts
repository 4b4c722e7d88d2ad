import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaKeys } from '../audit/types.ts';
import { SFCECClient } from './client.ts';
import { type FolderItem, type FolderJob, type FolderSource, LocalFolder } from './folder-records.ts';
import { FolderWorkerPool, openFolderSources, openFolderWorkers } from './folder-workers.ts';
import { recordsEntry } from './manifest.ts';
import { seedDays, tempApp } from './test-support.ts';
import { verifyBundleFile } from './verify.ts';
import { defaultVerifyLimits, type VerifyLimits } from './verify-limits.ts';
import { readAllEntries, writeEntries } from './zip-fixtures.ts';
import { openStrictZip } from './zip-strict.ts';

// The folder workers move the per-line work of a verification to other threads; these tests hold the two ways
// of reading a folder to the same items, digests and verdicts, on genuine and on tampered bundles.

const key = 'test-signing-key-0123456789abcdef';
const fixture = tempApp();
let good = '';
let entries = new Map<string, Buffer>();
let counter = 0;

beforeAll(async () => {
  const days = Array.from({ length: 12 }, (_, i) => `2026-02-${String(i + 1).padStart(2, '0')}`);
  seedDays(fixture.app, 'proj', days, 5);
  good = (await new SFCECClient({ app: fixture.app }).buildBundle('proj', ['2026-02-02', '2026-02-11'])).zip_path;
  entries = await readAllEntries(good);
}, 60_000);
afterAll(() => fixture.cleanup());

const drain = async (source: FolderSource): Promise<FolderItem[]> => {
  const items: FolderItem[] = [];
  for (;;) {
    const item = source.next();
    if (item === null) return items;
    if (item === undefined) await source.fill();
    else items.push(item);
  }
};

const jobsOf = (path: string) => {
  const zip = openStrictZip(path, defaultVerifyLimits);
  const jobs: FolderJob[] = schemaKeys.map((schemaKey) => ({
    key: schemaKey,
    entry: zip.files.get(recordsEntry(schemaKey)) as NonNullable<ReturnType<typeof zip.files.get>>,
    maxLineBytes: defaultVerifyLimits.maxLineBytes,
    maxDepth: defaultVerifyLimits.maxDepth,
    scope: { projectId: 'proj', range: ['2026-02-03', '2026-02-10'] },
  }));
  return { zip, jobs };
};

/** Both readings of a bundle: the items and digests of every folder, on this thread and on two workers. */
const bothWays = async (path: string, batchRecords: number) => {
  const { zip, jobs } = jobsOf(path);
  const workers = openFolderWorkers(zip.fd, jobs, 2, batchRecords);
  try {
    // Side by side, as the merge reads them: every folder's worker runs while the others are read.
    const remote = await Promise.all(workers.sources.map(async (source) => ({ items: await drain(source), digest: source.digest() })));
    const local = [];
    for (const job of jobs) {
      const source = new LocalFolder(zip, job);
      local.push({ items: await drain(source), digest: source.digest() });
    }
    return { local, remote };
  } finally {
    await workers.close();
    zip.close();
  }
};

const withFolder = (name: string, change: (text: string) => string): Map<string, Buffer> => {
  const copy = new Map(entries);
  copy.set(name, Buffer.from(change((entries.get(name) as Buffer).toString('utf8'))));
  return copy;
};

const written = async (changed: ReadonlyMap<string, Buffer>): Promise<string> => {
  counter += 1;
  const path = join(fixture.dir, `variant-${counter}.zip`);
  await writeEntries(path, changed);
  return path;
};

const verifyBothWays = async (path: string, limits: Partial<VerifyLimits> = {}) => {
  const run = async (parallelFolderBytes: number) => {
    const { verified_at: _at, ...result } = await verifyBundleFile(fixture.app, path, {
      hmacKey: key,
      limits: { ...defaultVerifyLimits, ...limits, parallelFolderBytes },
    });
    return result;
  };
  return { local: await run(Number.POSITIVE_INFINITY), workers: await run(0) };
};

const score = recordsEntry('score_records');
const bias = recordsEntry('bias_reports');

describe('folder workers', () => {
  it('send the same items and digests as reading on this thread, in many small batches (credit window)', async () => {
    const out = await bothWays(good, 3);
    expect(out.remote).toEqual(out.local);
    expect(out.local.map((folder) => folder.items.length)).toEqual(schemaKeys.map(() => 50));
    // The scope flags travel too: the records of 02-02 and 02-11 are outside this job's range.
    expect(
      out.local
        .flat()
        .flatMap((folder) => folder.items)
        .some((item) => typeof item !== 'string' && item.problems !== 0),
    ).toBe(true);
  }, 60_000);

  it('leave the verifying thread a share of the folders, the rest to one worker per other thread, same items', async () => {
    const { zip, jobs } = jobsOf(good);
    const shared = openFolderSources(zip, jobs, 3);
    try {
      const local = shared.sources.filter((source) => source instanceof LocalFolder);
      // Six folders over three threads: this thread reads its share here, the workers the others.
      expect(local.length).toBeGreaterThan(0);
      expect(local.length).toBeLessThan(jobs.length);
      expect(shared.sources.map((source) => source.key)).toEqual(schemaKeys);
      const items = await Promise.all(shared.sources.map(drain));
      const direct = await Promise.all(jobs.map((job) => drain(new LocalFolder(zip, job))));
      expect(items).toEqual(direct);
    } finally {
      await shared.close();
      zip.close();
    }
  }, 60_000);

  it('take the workers started ahead of the chain check, and the pool stops those nobody took', async () => {
    const { zip, jobs } = jobsOf(good);
    const pool = new FolderWorkerPool(2);
    // Started before any folder is known; the chain check's one worker (two threads) comes from the pool.
    const shared = openFolderSources(zip, jobs, 2, pool);
    try {
      expect(shared.sources.filter((source) => !(source instanceof LocalFolder)).length).toBeGreaterThan(0);
      const items = await Promise.all(shared.sources.map(drain));
      const direct = await Promise.all(jobs.map((job) => drain(new LocalFolder(zip, job))));
      expect(items).toEqual(direct);
    } finally {
      await shared.close();
      await pool.close();
      zip.close();
    }
  }, 60_000);

  it('send not-JSON and malformed lines and tampered records in line order', async () => {
    const path = await written(
      withFolder(score, (text) => {
        const lines = text.split('\n');
        lines.splice(3, 0, 'not json', '{"seq":1}');
        return lines.join('\n').replace('"value":0.91', '"value":0.99');
      }),
    );
    const out = await bothWays(path, 4);
    expect(out.remote).toEqual(out.local);
    expect(out.local[0]?.items.slice(3, 5)).toEqual(['not-json', 'malformed']);
  }, 60_000);

  const variants: [string, () => Map<string, Buffer>, Partial<VerifyLimits>?][] = [
    ['the genuine bundle', () => entries],
    ['a changed record', () => withFolder(score, (text) => text.replace('"value":0.91', '"value":0.99'))],
    ['a removed record', () => withFolder(bias, (text) => text.split('\n').slice(1).join('\n'))],
    ['a line that is not JSON', () => withFolder(bias, (text) => `garbage\n${text}`)],
    ['a record with an extra field', () => withFolder(score, (text) => text.replace('{"hash"', '{"approved_by":"x","hash"'))],
    ['two records swapped', () => withFolder(score, (text) => ((l) => [l[1], l[0], ...l.slice(2)].join('\n'))(text.split('\n')))],
    [
      'a record moved to another folder',
      () => {
        const [first = '', ...rest] = (entries.get(score) as Buffer).toString('utf8').split('\n');
        const copy = new Map(entries);
        copy.set(score, Buffer.from(rest.join('\n')));
        copy.set(bias, Buffer.from(`${first}\n${(entries.get(bias) as Buffer).toString('utf8')}`));
        return copy;
      },
    ],
    [
      'a line over the line cap (an archive error raised in a worker)',
      () => withFolder(score, (text) => `{"padding":"${'x'.repeat(3000)}"}\n${text}`),
      { maxLineBytes: 2000 },
    ],
  ];
  for (const [name, change, limits] of variants) {
    it(`give the verdicts of reading on this thread for ${name}`, async () => {
      const out = await verifyBothWays(await written(change()), limits);
      expect(out.workers).toEqual(out.local);
      expect(out.local.overall_valid).toBe(name === 'the genuine bundle');
    }, 60_000);
  }
});
