/**
 * The scans' evidence writer thread (evidence-writer.ts, evidence-writer-worker.ts): a thread that dies fails
 * only the batches it held and the next batch starts another; close lets what is in flight finish; its appends
 * and the app's own on the same file make one chain; and `POST /v1/scan/pii` on a serving app writes its evidence
 * there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../../app.ts';
import { examplePayloads } from '../../audit/examples.ts';
import { appendEvidence } from '../../audit/store.ts';
import { verifyChain } from '../../audit/verify.ts';
import { createTestServer } from '../../http/test-support.ts';
import { appendDurably } from '../evidence-queue.ts';
import { createEvidenceWriter } from './evidence-writer.ts';
import { evidenceWriterOf, startEvidenceWriter, startPiiWorkers } from './scanner.ts';

const at = '2026-11-28T12:00:00.000Z';
const scan = (i: number) => ({
  project_id: 'p1',
  schema_key: 'pii_detections' as const,
  timestamp: at,
  payload: { ...examplePayloads.pii_detections, text_length: i },
});

/** A stand-in thread: exits with code 5 at a batch of one input, else answers every input as durable. */
const standIn = (): Worker =>
  new Worker(
    `const { parentPort } = require('node:worker_threads');
     parentPort.on('message', (batch) => {
       if (batch.inputs.length === 1) process.exit(5);
       parentPort.postMessage({ id: batch.id, failures: batch.inputs.map(() => null) });
     });`,
    { eval: true },
  );

describe('createEvidenceWriter', () => {
  it('fails the batch of a thread that dies, starts another for the next, and after close refuses', async () => {
    let spawned = 0;
    const writer = createEvidenceWriter(() => {
      spawned += 1;
      return standIn();
    });
    const now = new Date(at);
    expect(await writer.write([scan(1), scan(2)], now)).toEqual([undefined, undefined]);
    await expect(writer.write([scan(3)], now)).rejects.toThrow('evidence writer exited with code 5');
    expect(await writer.write([scan(4), scan(5)], now)).toEqual([undefined, undefined]);
    expect(spawned).toBe(2);
    const inFlight = writer.write([scan(6), scan(7)], now);
    await writer.close();
    expect(await inFlight).toEqual([undefined, undefined]);
    await expect(writer.write([scan(8), scan(9)], now)).rejects.toThrow('evidence writer closed');
    expect(spawned).toBe(2);
  });
});

describe('the evidence writer thread on a SQLite file', () => {
  let dir: string;
  let app: App;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-evidence-writer-'));
    app = createApp({ dataDir: dir, env: {} });
  });
  afterEach(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('appends beside the app’s own writers to the same chain: no fork, no gap, nothing lost', async () => {
    startEvidenceWriter(app);
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 200; i++) {
      writes.push(appendDurably(app, scan(i), at));
      if (i % 20 === 0) writes.push(appendEvidence(app, [scan(1000 + i)]));
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(writes);
    expect(await verifyChain(app, 'p1')).toMatchObject({ valid: true, checked: 210, head_seq: 210 });
    const lengths = await app.database.all(
      z.object({ n: z.number() }),
      "SELECT json_extract(payload, '$.text_length') AS n FROM audit_records ORDER BY n",
    );
    expect(lengths.map((row) => row.n)).toEqual([
      ...Array.from({ length: 200 }, (_, i) => i),
      ...Array.from({ length: 10 }, (_, i) => 1000 + i * 20),
    ]);
  });

  it('is not started on an app in memory (one connection only): the queue writes there', async () => {
    const memory = createApp({ dataDir: ':memory:', env: {} });
    try {
      startEvidenceWriter(memory);
      expect(evidenceWriterOf(memory)).toBeUndefined();
      await appendDurably(memory, scan(1), at);
      expect(await verifyChain(memory, 'p1')).toMatchObject({ valid: true, checked: 1 });
    } finally {
      await memory.close();
    }
  });
});

describe('POST /v1/scan/pii on a serving app', { timeout: 180_000 }, () => {
  it('records each scan’s evidence through the writer thread before answering', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-evidence-writer-http-'));
    const t = await createTestServer({ dataDir, env: { SVC_PII_WORKERS: '1' } });
    try {
      startPiiWorkers(t.app);
      expect(evidenceWriterOf(t.app)).toBeDefined();
      const text = 'Contact Maria Gonzalez at maria.gonzalez@example.com.';
      const responses = await Promise.all(
        Array.from({ length: 20 }, () =>
          t.server.inject({
            method: 'POST',
            url: '/v1/scan/pii',
            headers: { 'content-type': 'application/json', ...t.auth() },
            payload: JSON.stringify({ text, project_id: 'http' }),
          }),
        ),
      );
      expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
      // Answered only once durable: every record is on the chain when the last answer is in.
      expect(await verifyChain(t.app, 'http')).toMatchObject({ valid: true, checked: 20 });
    } finally {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
