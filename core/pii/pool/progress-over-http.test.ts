/**
 * End to end over a real loopback listener with a real scan worker: a large scan sent to `POST
 * /api/ops/pii.scan` reports progress on the caller's server-sent event stream (`/api/events`, correlated by
 * `X-Svc-Request-Id`), and hanging up the request cancels it: nothing is recorded, the pool is free again, and
 * the next scan is served.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { countEvidence } from '../../audit/store.ts';
import { type Listener, startListener } from '../../http/listen.ts';
import { createApiKey } from '../../identity/api-keys/service.ts';
import type { ScanPool } from './pool.ts';
import { startPiiWorkers } from './scanner.ts';

/** Starting a worker loads the engine through tsx: tens of seconds on a loaded shared machine. */
const timeoutMs = 240_000;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-pii-progress-'));
let app: App;
let listener: Listener;
let pool: ScanPool;
let headers: Record<string, string>;

/** ~900 KB of prose with PII in every line: a scan of many recognizer passes, each long enough to be caught. */
const largeText = (): string => {
  const line = 'Maria Gonzalez (maria.gonzalez@example.com, +1 415-555-0132) met John Smith in Madrid on 3 March 2024. ';
  return line.repeat(Math.floor((900 * 1024) / line.length));
};

beforeAll(async () => {
  app = createApp({ dataDir, env: { SVC_PII_WORKERS: '1', SVC_LOG_LEVEL: 'error' } });
  pool = startPiiWorkers(app) as ScanPool;
  listener = await startListener(app, { port: 0, logRequests: false });
  headers = { authorization: `Bearer ${(await createApiKey(app, { tier: 'api', scopes: [], name: 'progress' })).secret}` };
}, timeoutMs);
afterAll(async () => {
  await listener?.close();
  app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Resolves with the first `progress` event for `requestId` on an open `/api/events` stream. */
const firstProgress = async (stream: Response, requestId: string): Promise<Record<string, unknown>> => {
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the event stream ended before any progress');
    buffered += decoder.decode(value, { stream: true });
    for (const match of buffered.matchAll(/event: progress\ndata: (.*)\n\n/g)) {
      const event = JSON.parse(match[1] as string) as Record<string, unknown>;
      if (event.requestId === requestId) {
        void reader.cancel();
        return event;
      }
    }
  }
};

const scan = (text: string, init: { requestId?: string; signal?: AbortSignal } = {}) =>
  fetch(`${listener.url}/api/ops/pii.scan`, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/json',
      ...(init.requestId === undefined ? {} : { 'x-svc-request-id': init.requestId }),
    },
    body: JSON.stringify({ text, project_id: 'progress' }),
    ...(init.signal === undefined ? {} : { signal: init.signal }),
  });

const scansRecorded = async (): Promise<number> => (await countEvidence(app.database, { projectId: 'progress' })).pii_detections;

describe('a large scan over HTTP', { timeout: timeoutMs }, () => {
  it('reports progress on the event stream and is cancelled when the client hangs up', async () => {
    const events = await fetch(`${listener.url}/api/events`, { headers });
    expect(events.status).toBe(200);
    const hangUp = new AbortController();
    const pending = scan(largeText(), { requestId: 'large-scan', signal: hangUp.signal });
    const progress = await firstProgress(events, 'large-scan');
    expect(progress).toMatchObject({ op: 'pii.scan', done: 1, message: expect.stringMatching(/^scanned with /) });
    expect(progress.total as number).toBeGreaterThan(5);
    hangUp.abort();
    await expect(pending).rejects.toThrow();
    // The server sees the hang-up, drops the scan and frees (or replaces) its worker.
    while (pool.stats().busy > 0 || pool.stats().ready < 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await scansRecorded()).toBe(0);

    const next = await scan('Mail jane@example.com');
    expect(next.status).toBe(200);
    expect(((await next.json()) as { value: { redacted_text: string } }).value.redacted_text).toBe('Mail <EMAIL_ADDRESS>');
    expect(await scansRecorded()).toBe(1);
  });
});
