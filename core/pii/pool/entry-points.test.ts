/**
 * The entry points that serve requests scan on the app's pool once it is started: POST /v1/scan/pii, the
 * `pii.scan` op (IPC and /api/ops), block mode. A worker that dies or hangs is a 500 `scan_error`, never a hung
 * request; large scans report progress and can be cancelled through the op context.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../app.ts';
import type { ProgressEvent } from '../../app.ts';
import { createTestServer, type TestServer } from '../../http/test-support.ts';
import type { Actor } from '../../ops/define.ts';
import { invoke } from '../../ops/dispatch.ts';
import { progressFromChars, scanText } from '../scan-service.ts';
import type { ScanPool } from './pool.ts';
import { startPiiWorkers } from './scanner.ts';

const desktopActor: Actor = { kind: 'local', id: 'desktop', tier: 'admin', scopes: [] };
/** Each worker start loads the engine through tsx: seconds, and tens of seconds on a loaded shared machine. */
const workerTestTimeoutMs = 180_000;
const hostileWorker = new URL('./test/hostile-worker.fixture.ts', import.meta.url);
const text = 'Contact Maria Gonzalez at maria.gonzalez@example.com or +1 415-555-0132.';

let t: TestServer;
let pool: ScanPool;
beforeAll(async () => {
  t = await createTestServer({ env: { SVC_PII_WORKERS: '1', SVC_PII_SCAN_TIMEOUT_SECONDS: '2' } });
  pool = startPiiWorkers(t.app, hostileWorker) as ScanPool;
});
afterAll(async () => {
  await t.close();
});

const post = (body: unknown) =>
  t.server.inject({
    method: 'POST',
    url: '/v1/scan/pii',
    headers: { 'content-type': 'application/json', ...t.auth() },
    payload: JSON.stringify(body),
  });

describe('POST /v1/scan/pii on the worker pool', { timeout: workerTestTimeoutMs }, () => {
  it('answers from a worker, the same as in-process', async () => {
    const response = await post({ text });
    expect(response.statusCode).toBe(200);
    expect(response.json().redacted_text).toBe('Contact <PERSON> at <EMAIL_ADDRESS> or <PHONE_NUMBER>.');
  });

  it('answers 500 scan_error when the worker dies mid-scan, then serves the next request', async () => {
    const response = await post({ text: 'exit-now' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'scan_error: scan worker died (exit code 7)' });
    expect((await post({ text })).statusCode).toBe(200);
  });

  it('answers 500 scan_error when a scan outlives SVC_PII_SCAN_TIMEOUT_SECONDS, then serves the next request', async () => {
    const response = await post({ text: 'hang-forever' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'scan_error: scan timed out after 2 s' });
    expect((await post({ text })).statusCode).toBe(200);
    expect(pool.stats()).toMatchObject({ workers: 1, busy: 0, queued: 0 });
  });

  it('keeps every check: 400 for a missing text, 413 past 1 MiB, 400 for an unknown entity type', async () => {
    expect((await post({ text: '' })).json()).toEqual({ error: 'missing_field: text' });
    expect((await post({ text: 'a'.repeat(1024 * 1024 + 1) })).statusCode).toBe(413);
    const unknown = await post({ text, entities: ['NO_SUCH_TYPE'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toContain('NO_SUCH_TYPE');
  });

  it('block mode refuses PII found by a worker with 422 PII_DETECTED', async () => {
    await expect(scanText(t.app, { text, language: 'en', projectId: 'p', source: 'test', action: 'block' })).rejects.toMatchObject({
      code: 'UNPROCESSABLE',
      message: 'PII_DETECTED',
    });
  });
});

describe('the pii.scan op: progress and cancel', { timeout: workerTestTimeoutMs }, () => {
  it('reports progress of a large scan and stops it when the caller aborts', async () => {
    const abort = new AbortController();
    const events: ProgressEvent[] = [];
    const off = t.app.events.on('progress', (event) => {
      events.push(event);
      abort.abort();
    });
    const stalled = invoke(
      'pii.scan',
      { text: `stall ${'x'.repeat(progressFromChars)}` },
      { app: t.app, actor: desktopActor, requestId: 'big-scan', signal: abort.signal },
    ).finally(off);
    await expect(stalled).rejects.toMatchObject({ code: 'UNAVAILABLE', message: 'scan cancelled' });
    expect(events).toEqual([
      { requestId: 'big-scan', op: 'pii.scan', done: 1, total: 2, message: 'scanned with stall', actorId: 'desktop' },
    ]);
    expect((await post({ text })).statusCode).toBe(200);
  });
});

describe('in-process scans (no pool: the CLI, tests)', { timeout: workerTestTimeoutMs }, () => {
  it('report progress for large texts only, and refuse to start when already cancelled', async () => {
    const app = createApp({ dataDir: ':memory:', env: {} });
    try {
      const events: ProgressEvent[] = [];
      const off = app.events.on('progress', (event) => events.push(event));
      await invoke('pii.scan', { text }, { app, actor: desktopActor });
      expect(events).toEqual([]);
      const big = `${text}\n`.repeat(Math.ceil(progressFromChars / text.length));
      const result = (await invoke('pii.scan', { text: big }, { app, actor: desktopActor })) as { entities: unknown[] };
      off();
      expect(result.entities.length).toBeGreaterThan(100);
      const total = events[0]?.total ?? 0;
      expect(total).toBeGreaterThan(10);
      expect(events.map((event) => event.done)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      await expect(invoke('pii.scan', { text }, { app, actor: desktopActor, signal: AbortSignal.abort() })).rejects.toMatchObject({
        message: 'scan cancelled',
      });
    } finally {
      app.close();
    }
  });
});
