import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { examplePayloads } from '../audit/examples.ts';
import { verifyChain } from '../audit/verify.ts';
import { AppError } from '../errors.ts';
import { appendDurably } from './evidence-queue.ts';
import { evidenceWriterOf, startEvidenceWriter } from './pool/scanner.ts';

const at = '2026-11-28T12:00:00.000Z';
const scan = (i: number) => ({
  project_id: 'p1',
  schema_key: 'pii_detections' as const,
  record_id: `scan-${i}`,
  timestamp: at,
  payload: examplePayloads.pii_detections,
});

describe.each([
  { writer: 'the app’s connection (its commits fsync the WAL off the event loop)', thread: false },
  { writer: 'the evidence writer thread of a serving app', thread: true },
])('scan evidence group commit on a SQLite file, written by $writer', ({ thread }) => {
  let dir: string;
  let app: App;
  /** Transactions of the evidence queue running now, and the most that ever ran at once. */
  let running = 0;
  let mostAtOnce = 0;
  let transactions = 0;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-evidence-queue-'));
    app = createApp({ dataDir: dir, env: {} });
    const serialized = app.database.serialized.bind(app.database);
    running = 0;
    mostAtOnce = 0;
    transactions = 0;
    if (thread) startEvidenceWriter(app);
    app.database.serialized = async (key, work, options) => {
      running += 1;
      transactions += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      try {
        return await serialized(key, work, options);
      } finally {
        running -= 1;
      }
    };
  });
  afterEach(() => {
    app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('many scans: each resolves once durable, they share few commits (two in flight, one on the thread), one chain', async () => {
    // Batches handed to the writer thread now, and the most ever at once.
    let posted = 0;
    let mostPosted = 0;
    const writer = evidenceWriterOf(app);
    if (writer !== undefined) {
      const write = writer.write.bind(writer);
      writer.write = async (inputs, now) => {
        posted += 1;
        mostPosted = Math.max(mostPosted, posted);
        try {
          return await write(inputs, now);
        } finally {
          posted -= 1;
        }
      };
    }
    // Ten scans finish in each event-loop turn, as under load.
    const durable: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      durable.push(appendDurably(app, scan(i), at));
      if (i % 10 === 9) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(durable);
    const chain = await verifyChain(app, 'p1');
    expect(chain).toMatchObject({ valid: true, checked: 300, head_seq: 300 });
    // A batch per event-loop turn at most; on a disk whose fsync takes longer than a turn, fewer and larger ones.
    expect(mostAtOnce).toBeLessThanOrEqual(2);
    if (thread) {
      // None on the app's connection; one recorded_at per batch the thread committed; the thread's batches one
      // at a time (a second would only wait in its port, at the cost of a smaller batch).
      expect(writer).toBeDefined();
      expect(transactions).toBe(0);
      expect(mostPosted).toBe(1);
      const batches = await app.database.all(z.object({ n: z.number() }), 'SELECT count(DISTINCT recorded_at) AS n FROM audit_records');
      expect(batches[0]?.n).toBeLessThanOrEqual(30);
    } else expect(transactions).toBeLessThanOrEqual(30);
  });

  it('a record that cannot be appended fails alone: the others of its batch are written', async () => {
    const outcomes = await Promise.allSettled([
      appendDurably(app, scan(1), at),
      appendDurably(app, { ...scan(2), payload: { not: 'a pii_detections payload' } }, at),
      appendDurably(app, scan(3), at),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // A bad record stays a client mistake across the thread boundary (a 400, not a 500).
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'VALIDATION' });
    expect(await verifyChain(app, 'p1')).toMatchObject({ valid: true, checked: 2 });
  });
});
