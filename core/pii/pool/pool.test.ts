import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFullEngine } from '../full-engine.ts';
import { createScanPool, type ScanPool } from './pool.ts';
import { spawnWorker } from '../../worker-thread.ts';
import { scanWorkerUrl } from './spawn.ts';

/** Each worker start loads the engine through tsx: seconds, and tens of seconds on a loaded shared machine. */
const workerTestTimeoutMs = 180_000;
const hostileWorker = new URL('./test/hostile-worker.fixture.ts', import.meta.url);
const text = 'Contact Maria Gonzalez at maria.gonzalez@example.com or +1 415-555-0132.';

let pools: ScanPool[] = [];
const newPool = (size: number, worker = hostileWorker, timeoutMs = 30_000, cancelGraceMs = 500): ScanPool => {
  const pool = createScanPool({ size, timeoutMs, cancelGraceMs, spawn: () => spawnWorker(worker, {}) });
  pools.push(pool);
  return pool;
};
afterEach(() => {
  for (const pool of pools) pool.close();
  pools = [];
});

/** The pool replaces a dead worker in the background; wait (bounded by the test timeout) until it is ready. */
const readyWorkers = async (pool: ScanPool, count: number): Promise<void> => {
  while (pool.stats().ready < count) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('scan pool with the real worker', { timeout: workerTestTimeoutMs }, () => {
  // Workers take seconds to start through tsx on a loaded machine: these tests share one pool.
  let pool: ScanPool;
  beforeAll(() => {
    pool = createScanPool({ size: 2, timeoutMs: 30_000, spawn: () => spawnWorker(scanWorkerUrl(), {}) });
  });
  afterAll(() => pool.close());

  it('finds what the in-process engine finds, with scans spread over the workers', async () => {
    const expected = createFullEngine(undefined).scan(text, { language: 'en' });
    expect(expected.entities.map((e) => e.type)).toEqual(expect.arrayContaining(['EMAIL_ADDRESS', 'PERSON', 'PHONE_NUMBER']));
    const results = await Promise.all(Array.from({ length: 6 }, () => pool.scan(text, { language: 'en' })));
    for (const result of results) expect(result).toEqual(expected);
    expect(pool.stats()).toMatchObject({ workers: 2, busy: 0, queued: 0 });
  });

  it('keeps the error code of a bad request (an unknown entity type is a VALIDATION error, not a crash)', async () => {
    await expect(pool.scan(text, { language: 'en', entities: ['NO_SUCH_TYPE'] })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('NO_SUCH_TYPE'),
    });
    await expect(pool.scan(text, { language: 'en' })).resolves.toMatchObject({ detected: true });
  });

  it('reports progress of a real scan, one step per recognizer pass, up to the total', async () => {
    const steps: Array<[number, number, string]> = [];
    const big = `${text} `.repeat(2_000);
    const result = await pool.scan(
      big,
      { language: 'en' },
      { onProgress: (done, total, recognizer) => steps.push([done, total, recognizer]) },
    );
    expect(result.entities.length).toBeGreaterThanOrEqual(2_000 * 3);
    const total = steps[0]?.[1] ?? 0;
    expect(total).toBeGreaterThan(10);
    expect(steps.map(([done]) => done)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(steps.map(([, , recognizer]) => recognizer)).toContain('CompromiseNerRecognizer');
  });
});

describe('scan pool with misbehaving workers', { timeout: workerTestTimeoutMs }, () => {
  it('fails the scan whose worker dies, replaces the worker and serves the next scans', async () => {
    const pool = newPool(1);
    const queued = pool.scan(text, { language: 'en' });
    const dying = pool.scan('exit-now', { language: 'en' });
    const afterwards = pool.scan(text, { language: 'en' });
    await expect(queued).resolves.toMatchObject({ detected: true });
    await expect(dying).rejects.toThrow('scan worker died (exit code 7)');
    await expect(afterwards).resolves.toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0 });
  });

  it('hands a ready worker several small scans at once, but a large or progress-reporting one only when it is idle', async () => {
    const pool = newPool(1);
    await readyWorkers(pool, 1);
    const small = [pool.scan(`slow ${text}`, { language: 'en' }), pool.scan(text, { language: 'en' }), pool.scan(text, { language: 'en' })];
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 0 });
    const large = pool.scan(`${text} `.repeat(1_000), { language: 'en' });
    const reporting = pool.scan(text, { language: 'en' }, { onProgress: () => {} });
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 2 });
    for (const result of await Promise.all([...small, large, reporting])) expect(result).toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ busy: 0, queued: 0, started: 1 });
  });

  it('runs the scans queued in a dying worker behind the one that killed it on its replacement', async () => {
    const pool = newPool(1);
    await readyWorkers(pool, 1);
    const before = pool.scan(text, { language: 'en' });
    const dying = pool.scan('exit-now', { language: 'en' });
    const behind = [pool.scan(text, { language: 'en' }), pool.scan(text, { language: 'en' })];
    expect(pool.stats().queued).toBe(0);
    await expect(before).resolves.toMatchObject({ detected: true });
    await expect(dying).rejects.toThrow('scan worker died (exit code 7)');
    for (const result of await Promise.all(behind)) expect(result).toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0, started: 2 });
  });

  it('rejects a scan cancelled while it waits in a worker at once, and keeps the worker', async () => {
    const pool = newPool(1);
    await readyWorkers(pool, 1);
    const abort = new AbortController();
    const running = pool.scan(`slow ${text}`, { language: 'en' });
    const waiting = pool.scan(text, { language: 'en' }, { signal: abort.signal });
    expect(pool.stats().queued).toBe(0);
    abort.abort();
    await expect(waiting).rejects.toThrow('scan cancelled');
    await expect(running).resolves.toMatchObject({ detected: true });
    await expect(pool.scan(text, { language: 'en' })).resolves.toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ workers: 1, started: 1 });
  });

  it('fails a scan that outlives the timeout, terminates its worker and serves the next scans', async () => {
    const pool = newPool(1, hostileWorker, 2_000);
    await readyWorkers(pool, 1);
    const started = performance.now();
    await expect(pool.scan('hang-forever', { language: 'en' })).rejects.toThrow('scan timed out after 2 s');
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_900);
    await expect(pool.scan(text, { language: 'en' })).resolves.toMatchObject({ detected: true });
  });

  it('cancels a running scan by replacing its worker, and a queued one at once', async () => {
    const pool = newPool(1);
    const abortRunning = new AbortController();
    const abortQueued = new AbortController();
    const progress: number[] = [];
    const running = pool.scan(
      'stall',
      { language: 'en' },
      {
        signal: abortRunning.signal,
        onProgress: (done) => {
          progress.push(done);
          abortRunning.abort();
        },
      },
    );
    const queued = pool.scan(text, { language: 'en' }, { signal: abortQueued.signal });
    abortQueued.abort();
    await expect(queued).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'scan cancelled' });
    await expect(running).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'scan cancelled' });
    expect(progress).toEqual([1]);
    await expect(pool.scan(text, { language: 'en' })).resolves.toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ workers: 1, started: 2 });
    await expect(pool.scan(text, { language: 'en' }, { signal: AbortSignal.abort() })).rejects.toThrow('scan cancelled');
  });

  it('lets a cancelled scan that ends within the grace period finish on its worker instead of replacing it', async () => {
    const pool = newPool(1, hostileWorker, 30_000, 10_000);
    await readyWorkers(pool, 1);
    const abort = new AbortController();
    const slow = pool.scan(`slow ${text}`, { language: 'en' }, { signal: abort.signal });
    while (pool.stats().busy === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    abort.abort();
    await expect(slow).rejects.toThrow('scan cancelled');
    await expect(pool.scan(text, { language: 'en' })).resolves.toMatchObject({ detected: true });
    expect(pool.stats()).toMatchObject({ workers: 1, started: 1 });
  });

  it('fails waiting scans when workers cannot start, instead of respawning them in a loop', async () => {
    const pool = newPool(2, new URL('./test/no-such-worker.ts', import.meta.url));
    await expect(pool.scan(text, { language: 'en' })).rejects.toThrow(/scan worker failed to start/);
    expect(pool.stats().workers).toBe(0);
  });

  it('rejects everything pending on close', async () => {
    const pool = newPool(1);
    const pending = pool.scan('hang-forever', { language: 'en' });
    const queued = pool.scan(text, { language: 'en' });
    pool.close();
    await expect(pending).rejects.toThrow('scan pool closed');
    await expect(queued).rejects.toThrow('scan pool closed');
    await expect(pool.scan(text, { language: 'en' })).rejects.toThrow('scan pool is closed');
  });
});
