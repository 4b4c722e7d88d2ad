import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { queryEvidence } from '../audit/query.ts';
import { AppError } from '../errors.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { filterChatMessages } from './chat-filter.ts';
import { piiEngineKey } from './default-engine.ts';
import { createPiiEngine } from './engine.ts';
import { nerRecognizer } from './ner/recognizer.ts';
import { type FakePresidio, startFakePresidio } from './presidio/test/fake-presidio.ts';
import { failingRecognizer } from './test/failing-recognizer.ts';
import { scanText } from './scan-service.ts';
import { lastScanAt, piiStatus, recordScanTime } from './status.ts';

const text = 'Contact Maria Gonzalez at maria.gonzalez@example.com or +1 415-555-0132.';
const request = { text, language: 'en', projectId: 'p1', source: 'test' } as const;

let apps: App[] = [];
const newApp = (env: NodeJS.ProcessEnv = {}): App => {
  const app = createApp({ dataDir: ':memory:', env, now: () => new Date('2026-11-21T12:00:00.000Z') });
  apps.push(app);
  return app;
};
afterEach(() => {
  for (const app of apps) app.close();
  apps = [];
});

let presidio: FakePresidio;
beforeAll(async () => {
  presidio = await startFakePresidio();
});
afterAll(async () => {
  await presidio.close();
});

const evidenceOf = async (app: App, projectId = 'p1') =>
  (await queryEvidence(app, { projectId, schemaKey: 'pii_detections', limit: 1000 })).records;

describe('scanText with the built-in engine', () => {
  it('redacts by default and records evidence without the text or matched values', async () => {
    const app = newApp();
    const { result, action, engine } = await scanText(app, request);
    expect([action, engine]).toEqual(['redact', 'builtin']);
    expect(result.detected).toBe(true);
    const types = result.entities.map((f) => f.type);
    expect(types).toEqual(expect.arrayContaining(['PERSON', 'EMAIL_ADDRESS', 'PHONE_NUMBER']));
    expect(result.redacted_text).toContain('<EMAIL_ADDRESS>');
    expect(result.redacted_text).toContain('<PERSON>');
    expect(result.redacted_text).not.toContain('maria.gonzalez');

    const [record, ...more] = await evidenceOf(app);
    expect(more).toEqual([]);
    expect(record?.payload).toMatchObject({
      source: 'test',
      language: 'en',
      total_findings: result.entities.length,
      text_length: [...text].length,
      redacted: true,
      labels: { action: 'redact', engine: 'builtin' },
    });
    // The payload and labels are what the record keeps of the scan (hashes and ids are random hex, and may hold '555').
    const stored = JSON.stringify(record?.payload);
    for (const secret of ['Maria', 'Gonzalez', 'example.com', '555']) expect(stored).not.toContain(secret);
  });

  it('blocks with PII_DETECTED (422) when the action is block, still recording the scan', async () => {
    const app = newApp({ SVC_PII_ACTION: 'block' });
    const error = await scanText(app, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'UNPROCESSABLE', message: 'PII_DETECTED' });
    expect((await evidenceOf(app))[0]?.payload).toMatchObject({ labels: { action: 'block' }, redacted: false });
    const clean = await scanText(app, { ...request, text: 'The build passed.' });
    expect(clean.result).toEqual({ detected: false, entities: [], redacted_text: 'The build passed.', normalized: false });
  });

  it('flag reports the findings and passes the text through unchanged', async () => {
    const app = newApp({ SVC_PII_ACTION: 'flag' });
    const { result } = await scanText(app, request);
    expect(result.detected).toBe(true);
    expect(result.redacted_text).toBe(text);
  });

  it('turns a failing recognizer into scan_error, never a silent pass', async () => {
    const app = newApp();
    const failing = failingRecognizer('recognizer exploded');
    app.services.set(piiEngineKey, createPiiEngine({ extraRecognizers: [nerRecognizer, failing] }));
    await expect(scanText(app, request)).rejects.toMatchObject({ code: 'INTERNAL', message: 'scan_error: recognizer exploded' });
  });

  it('rejects unsupported languages and text over 1 MiB', async () => {
    const app = newApp();
    await expect(scanText(app, { ...request, language: 'xx' })).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(scanText(app, { ...request, text: 'a'.repeat(1024 * 1024 + 1) })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'request_too_large',
    });
  });
});

describe('evidence and configuration', () => {
  it('records concurrent scans in one durable chain, in order, with no gaps', async () => {
    const app = newApp();
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => scanText(app, { ...request, text: `Mail user${i}@example.com` })),
    );
    expect(outcomes.every((o) => o.result.detected)).toBe(true);
    const records = await evidenceOf(app);
    expect(records.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    for (let i = 1; i < records.length; i++) expect(records[i]?.prev_hash).toBe(records[i - 1]?.hash);
  });

  it('loads custom recognizers from <dataDir>/recognizers.json', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-pii-'));
    try {
      writeFileSync(
        join(dir, 'recognizers.json'),
        JSON.stringify([
          { name: 'Ticket', supported_entity: 'TICKET_ID', patterns: [{ name: 'ticket', regex: 'TCK-\\d{6}', score: 0.9 }] },
        ]),
      );
      const app = createApp({ dataDir: dir, env: {} });
      apps.push(app);
      const { result } = await scanText(app, { ...request, text: 'See TCK-123456 for details.' });
      expect(result.entities.filter((f) => f.type === 'TICKET_ID')).toEqual([{ type: 'TICKET_ID', start: 4, end: 14, score: 0.9 }]);
      expect(result.redacted_text).toBe('See <TICKET_ID> for details.');
    } finally {
      for (const app of apps) app.close();
      apps = [];
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scanText with Presidio', () => {
  it('uses Presidio when it answers, and merges with the built-in engine when asked', async () => {
    presidio.mode = 'ok';
    const app = newApp({ SVC_PRESIDIO_URL: presidio.url });
    const remote = await scanText(app, request);
    expect(remote.engine).toBe('presidio');
    expect(remote.result.entities.map((f) => f.type)).toEqual(['EMAIL_ADDRESS']);
    expect(presidio.requests.at(-1)).toMatchObject({ text, language: 'en', return_decision_process: false });

    const merging = newApp({ SVC_PRESIDIO_URL: presidio.url, SVC_PRESIDIO_MERGE: 'true' });
    const merged = await scanText(merging, request);
    expect(merged.engine).toBe('merged');
    expect(merged.result.entities.filter((f) => f.type === 'EMAIL_ADDRESS')).toHaveLength(1);
    expect(merged.result.entities.map((f) => f.type)).toEqual(expect.arrayContaining(['PERSON', 'PHONE_NUMBER']));
  });

  it('falls back to the built-in engine when Presidio is down and reports degraded status', async () => {
    presidio.mode = 'error';
    const app = newApp({ SVC_PRESIDIO_URL: presidio.url });
    const outcome = await scanText(app, request);
    expect(outcome.engine).toBe('builtin');
    expect(outcome.result.entities.map((f) => f.type)).toEqual(expect.arrayContaining(['PERSON', 'PHONE_NUMBER']));
    expect(await piiStatus(app)).toMatchObject({ status: 'degraded', presidio_available: false });
    presidio.mode = 'ok';
    expect(await piiStatus(app)).toMatchObject({ status: 'ok', presidio_available: true });
  });
});

describe.each(testBackends)('piiStatus on $name', (backend) => {
  let clock = new Date('2026-11-21T12:00:00.000Z');
  const t = appPerTest(backend, { now: () => clock });

  it('reports entity types and the time of the last scan, stored in the database every instance reads', async () => {
    const { app } = t();
    const before = await piiStatus(app);
    expect(before).toMatchObject({ status: 'ok', presidio_available: false, last_scan_at: null });
    expect(before.entity_types_loaded).toEqual(
      expect.arrayContaining(['EMAIL_ADDRESS', 'PHONE_NUMBER', 'US_SSN', 'PIPL_NATIONAL_ID', 'PERSON', 'LOCATION', 'NRP']),
    );
    await scanText(app, request);
    expect((await piiStatus(app)).last_scan_at).toBe('2026-11-21T12:00:00.000Z');
    const other = await t().second();
    await vi.waitFor(async () => expect((await piiStatus(other)).last_scan_at).toBe('2026-11-21T12:00:00.000Z'));
  });

  it('last_scan_at only moves forward, whichever instance writes last', async () => {
    const { app } = t();
    const other = await t().second();
    const later = '2026-11-21T12:05:00.000Z';
    recordScanTime(app, later);
    await vi.waitFor(async () => expect(await lastScanAt(other)).toBe(later));
    recordScanTime(other, '2026-11-21T12:01:00.000Z'); // an instance whose batch committed after, with an older scan
    const stored = z.object({ value: z.string() });
    await vi.waitFor(async () =>
      expect(await app.database.one(stored, "SELECT value FROM pii_state WHERE key = 'last_scan_at'")).toEqual({ value: later }),
    );
    expect([await lastScanAt(app), await lastScanAt(other)]).toEqual([later, later]);
    clock = new Date('2026-11-21T12:06:00.000Z');
    try {
      await scanText(other, request);
      // Written within a second (this instance wrote one less than a second ago), then every instance sees it.
      await vi.waitFor(async () => expect(await lastScanAt(app)).toBe('2026-11-21T12:06:00.000Z'), { timeout: 5_000 });
    } finally {
      clock = new Date('2026-11-21T12:00:00.000Z');
    }
  });
});

describe('filterChatMessages', () => {
  const messages = [
    { role: 'system', content: 'You help Maria Gonzalez.' },
    { role: 'user', content: 'Mail maria.gonzalez@example.com please' },
  ];

  it('redacts user messages only', async () => {
    const app = newApp();
    const out = await filterChatMessages(app, messages, 'redact');
    expect(out[0]).toEqual(messages[0]);
    expect(out[1]?.content).toBe('Mail <EMAIL_ADDRESS> please');
    expect((await evidenceOf(app, 'default'))[0]?.payload).toMatchObject({ source: 'chat.filter' });
  });

  it('blocks with PII_DETECTED, and leaves everything alone when off', async () => {
    const app = newApp();
    await expect(filterChatMessages(app, messages, 'block')).rejects.toMatchObject({ code: 'UNPROCESSABLE', message: 'PII_DETECTED' });
    expect(await filterChatMessages(app, messages, 'off')).toEqual(messages);
    expect(await evidenceOf(app, 'default')).toHaveLength(1);
  });
});
