import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { countEvidence } from '../audit/store.ts';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { piiEngineKey } from './default-engine.ts';
import { createPiiEngine } from './engine.ts';
import { type FakePresidio, startFakePresidio } from './presidio/test/fake-presidio.ts';
import { failingRecognizer } from './test/failing-recognizer.ts';

let presidio: FakePresidio;
/** The env of the Presidio tests' apps, completed once the fake Presidio listens (appPerTest reads it per test). */
const presidioEnv: NodeJS.ProcessEnv = {};
beforeAll(async () => {
  presidio = await startFakePresidio();
  presidioEnv.SVC_PRESIDIO_URL = presidio.url;
});
afterAll(async () => {
  await presidio.close();
});

let servers: TestServer[] = [];
const start = async (env: NodeJS.ProcessEnv = {}): Promise<TestServer> => {
  const server = await createTestServer({ env });
  servers.push(server);
  return server;
};
/** A server on a back end's app (the scans that write pii_detections evidence run on both back ends). */
const startOn = async (app: App): Promise<TestServer> => {
  const server = await createTestServer({ app });
  servers.push(server);
  return server;
};
/** The pii_detections records of the project HTTP scans default to. */
const detections = async (app: App): Promise<number> => (await countEvidence(app.database, { projectId: 'default' })).pii_detections;

/** Tests whose scans record evidence: one describe per back end, with a fresh app per test (its env fixed per describe). */
const onEachBackend = (title: string, env: NodeJS.ProcessEnv, body: (app: () => App) => void): void =>
  describe.each(testBackends)(`${title} on $name`, (backend) => {
    const t = appPerTest(backend, { env });
    body(() => t().app);
  });
afterEach(async () => {
  for (const server of servers) await server.close();
  servers = [];
});

const scan = (t: TestServer, payload: unknown, headers: Record<string, string> = {}) =>
  t.server.inject({
    method: 'POST',
    url: '/v1/scan/pii',
    headers: { 'content-type': 'application/json', ...t.auth(), ...headers },
    payload: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : JSON.stringify(payload),
  });

onEachBackend('POST /v1/scan/pii: success', {}, (app) => {
  it('answers 200 with exactly detected, entities, redacted_text (spec 2.2) and normalized', async () => {
    const t = await startOn(app());
    const text = 'Email john.smith@example.com, SSN 536-22-4187.';
    const response = await scan(t, { text, language: 'en' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['detected', 'entities', 'normalized', 'redacted_text']);
    expect(body.detected).toBe(true);
    for (const entity of body.entities) expect(Object.keys(entity).sort()).toEqual(['end', 'score', 'start', 'type']);
    expect(body.entities.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining(['EMAIL_ADDRESS', 'US_SSN']));
    expect(body.redacted_text).toBe('Email <EMAIL_ADDRESS>, SSN <US_SSN>.');
    expect(await detections(app())).toBe(1);
  });

  it('adds an explanation per entity when return_decision_process is true, and honours filters', async () => {
    const t = await startOn(app());
    const text = 'Email john.smith@example.com or ops@example.org';
    const response = await scan(t, {
      text,
      entities: ['EMAIL_ADDRESS'],
      score_threshold: 0.5,
      allow_list: ['ops@example.org'],
      return_decision_process: true,
    });
    const body = response.json();
    expect(body.entities).toHaveLength(1);
    expect(body.entities[0]).toMatchObject({ type: 'EMAIL_ADDRESS', explanation: { recognizer: expect.any(String) } });
    expect(body.redacted_text).toBe('Email <EMAIL_ADDRESS> or ops@example.org');
  });

  it('answers with no entities for clean text', async () => {
    const t = await startOn(app());
    const response = await scan(t, { text: 'The build passed.' });
    expect(response.json()).toEqual({ detected: false, entities: [], redacted_text: 'The build passed.', normalized: false });
  });
});

onEachBackend('POST /v1/scan/pii: block', { SVC_PII_ACTION: 'block' }, (app) => {
  it('422 PII_DETECTED when the action is block and PII was found; 200 when clean', async () => {
    const t = await startOn(app());
    const blocked = await scan(t, { text: 'Mail jane@example.com' });
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json()).toEqual({ error: 'PII_DETECTED' });
    // The blocked scan is recorded before it is refused (scan-service.ts), and so is the clean one.
    expect(await detections(app())).toBe(1);
    const clean = await scan(t, { text: 'Nothing to see here.' });
    expect(clean.statusCode).toBe(200);
    expect(await detections(app())).toBe(2);
  });
});

// The error table, validation and auth answer before any evidence is written (and the key store is tested on both
// back ends in core/identity): one back end.
describe('POST /v1/scan/pii: the spec’s error table', () => {
  it('400 missing_field: text when text is absent or empty (or the body is empty)', async () => {
    const t = await start();
    for (const payload of [{}, { text: '' }, { language: 'en' }, { text: null }, '']) {
      const response = await scan(t, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'missing_field: text' });
    }
  });

  it('413 request_too_large when the body exceeds 1 MiB (raw body, before parsing)', async () => {
    const t = await start();
    const response = await scan(t, JSON.stringify({ text: 'a'.repeat(1024 * 1024) }));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'request_too_large' });
  });

  it('500 scan_error: <detail> on engine failure', async () => {
    const t = await start();
    const failing = failingRecognizer('regex engine crashed');
    t.app.services.set(piiEngineKey, createPiiEngine({ extraRecognizers: [failing] }));
    const response = await scan(t, { text: 'hello' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'scan_error: regex engine crashed' });
  });
});

describe('POST /v1/scan/pii: bad input gets a clear 4xx', () => {
  it('validates language and entity names', async () => {
    const t = await start();
    const language = await scan(t, { text: 'hi', language: 'klingon' });
    expect(language.statusCode).toBe(400);
    expect(language.json().error).toMatch(/^unsupported language: klingon/);
    const entity = await scan(t, { text: 'hi', entities: ['NOT_A_TYPE'] });
    expect(entity.statusCode).toBe(400);
    expect(entity.json().error).toMatch(/NOT_A_TYPE/);
  });

  it('rejects wrong types, malformed and deeply nested JSON', async () => {
    const t = await start();
    const cases: unknown[] = [
      { text: 123 },
      { text: ['a'] },
      { text: 'hi', score_threshold: 'high' },
      { text: 'hi', entities: 'EMAIL_ADDRESS' },
      [1, 2],
      '{"text": "unterminated',
      `{"text":"x","deep":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ];
    for (const payload of cases) {
      const response = await scan(t, typeof payload === 'string' ? payload : JSON.stringify(payload));
      expect(response.statusCode, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(typeof response.json().error).toBe('string');
    }
  });

  it('refuses a non-JSON content type with a 4xx', async () => {
    const t = await start();
    const response = await scan(t, Buffer.from([0, 1, 2, 3]), { 'content-type': 'application/octet-stream' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
  });

  it('needs the api tier', async () => {
    const t = await start();
    const anonymous = await t.server.inject({ method: 'POST', url: '/v1/scan/pii', payload: { text: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
    const free = await scan(t, { text: 'hi' }, t.auth(await t.newKey('free')));
    expect(free.statusCode).toBe(403);
    const api = await scan(t, { text: 'hi' }, t.auth(await t.newKey('api')));
    expect(api.statusCode).toBe(200);
  });
});

onEachBackend('POST /v1/scan/pii: hostile text', {}, (app) => {
  it('scans lone surrogates, control characters and invalid UTF-8 without failing', async () => {
    const t = await startOn(app());
    const lone = await scan(t, '{"text":"\\ud800 mail a@example.com \\udfff\\u0000"}');
    expect(lone.statusCode).toBe(200);
    expect(lone.json().redacted_text).toContain('<EMAIL_ADDRESS>');
    const invalidUtf8 = Buffer.concat([Buffer.from('{"text":"caf'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from(' x"}')]);
    const bytes = await scan(t, invalidUtf8);
    expect(bytes.statusCode).toBe(200);
    expect(await detections(app())).toBe(2);
  });
});

onEachBackend('GET /v1/svc/status', {}, (app) => {
  it('carries a truthful sf_pii block', async () => {
    const t = await startOn(app());
    const before = (await t.server.inject({ method: 'GET', url: '/v1/svc/status' })).json();
    expect(before.sf_pii).toMatchObject({ status: 'ok', presidio_available: false, last_scan_at: null });
    expect(before.sf_pii.entity_types_loaded).toEqual(
      expect.arrayContaining(['EMAIL_ADDRESS', 'PHONE_NUMBER', 'US_SSN', 'PIPL_NATIONAL_ID']),
    );
    await scan(t, { text: 'hello' });
    const after = (await t.server.inject({ method: 'GET', url: '/v1/svc/status' })).json();
    expect(after.sf_pii.last_scan_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

onEachBackend('Presidio delegation over HTTP', presidioEnv, (app) => {
  it('answers from Presidio when up, falls back when down, and the status block says degraded', async () => {
    const t = await startOn(app());
    presidio.mode = 'ok';
    const up = await scan(t, { text: 'Alice wrote to alice@example.com' });
    expect(
      up
        .json()
        .entities.map((e: { type: string }) => e.type)
        .sort(),
    ).toEqual(['EMAIL_ADDRESS', 'PERSON']);
    const okStatus = (await t.server.inject({ method: 'GET', url: '/v1/svc/status' })).json();
    expect(okStatus.sf_pii).toMatchObject({ status: 'ok', presidio_available: true });

    presidio.mode = 'error';
    const down = await scan(t, { text: 'Mail bob@example.com, SSN 536-22-4187' });
    expect(down.statusCode).toBe(200);
    expect(down.json().redacted_text).toBe('Mail <EMAIL_ADDRESS>, SSN <US_SSN>');
    const degraded = (await t.server.inject({ method: 'GET', url: '/v1/svc/status' })).json();
    expect(degraded.sf_pii).toMatchObject({ status: 'degraded', presidio_available: false });
    presidio.mode = 'ok';
  });
});

describe('pii.entityTypes', () => {
  it('lists languages and entity types, and rejects an unknown language', async () => {
    const t = await start();
    const free = await t.newKey('free');
    const call = (input: unknown) =>
      t.server.inject({ method: 'POST', url: '/api/ops/pii.entityTypes', headers: t.auth(free), payload: input as object });
    const ok = (await call({ language: 'en' })).json();
    expect(ok.ok).toBe(true);
    expect(ok.value.languages).toContain('en');
    expect(ok.value.entity_types).toEqual(expect.arrayContaining(['EMAIL_ADDRESS', 'PERSON', 'PIPL_NATIONAL_ID']));
    const bad = await call({ language: 'xx' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'VALIDATION' } });
  });
});
