/**
 * Normalisation before matching (issue 11.7): obfuscated PII is found, offsets and redaction cover the original
 * characters (invisible ones inside the span included), and block mode refuses it over a real loopback listener.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { createPiiEngine } from './engine.ts';
import { scanViews } from './normalize.ts';
import { startFakePresidio } from './presidio/test/fake-presidio.ts';
import { creditCard, int, pick, type Rng, seededRng } from './test/generators.ts';
import type { Finding } from './types.ts';

const engine = createPiiEngine();
const cps = (text: string): string[] => [...text];
const spanText = (text: string, f: Finding): string => cps(text).slice(f.start, f.end).join('');
const found = (text: string) => engine.scan(text).entities.map((f) => [f.type, spanText(text, f)]);

const INVISIBLE = [
  '\u200b',
  '\u200c',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202c',
  '\u2060',
  '\u2063',
  '\u2066',
  '\u2069',
  '\ufeff',
  '\u00ad',
];

describe('obfuscated PII is found and the span covers the original characters', () => {
  it.each([
    ['zero-width space in an e-mail address', 'write to john\u200b@example.com today', 'EMAIL_ADDRESS', 'john\u200b@example.com'],
    ['soft hyphens and word joiners in an e-mail', 'mail jo\u00adhn@exam\u2060ple.com', 'EMAIL_ADDRESS', 'jo\u00adhn@exam\u2060ple.com'],
    [
      'a card number split by zero-width spaces',
      'card 4111\u200b1111\u200b1111\u200b1111 ok',
      'CREDIT_CARD',
      '4111\u200b1111\u200b1111\u200b1111',
    ],
    ['full-width digits', 'card ４１１１ １１１１ １１１１ １１１１.', 'CREDIT_CARD', '４１１１ １１１１ １１１１ １１１１'],
    ['full-width letters and digits in an e-mail', 'ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'EMAIL_ADDRESS', 'ｊｏｈｎ＠ｅｘａｍｐｌｅ．ｃｏｍ'],
    [
      'an address written backwards behind a right-to-left override',
      'mail \u202emoc.elpmaxe@nhoj\u202c ok',
      'EMAIL_ADDRESS',
      'moc.elpmaxe@nhoj',
    ],
    [
      'a reversed card number, override up to the end of the line',
      'pay \u202e1111 1111 1111 1114\nthanks',
      'CREDIT_CARD',
      '1111 1111 1111 1114',
    ],
  ])('%s', (_label, text, type, span) => {
    const result = engine.scan(text);
    expect(result.normalized).toBe(true);
    expect(found(text)).toContainEqual([type, span]);
    expect(result.redacted_text).not.toContain(span);
    expect(result.redacted_text).toContain(`<${type}>`);
  });

  it('reports normalized: false and the same findings for plain text', () => {
    const text = 'Email john@example.com, card 4111 1111 1111 1111.';
    const result = engine.scan(text);
    expect(result.normalized).toBe(false);
    expect(result.redacted_text).toBe('Email <EMAIL_ADDRESS>, card <CREDIT_CARD>.');
  });

  it('keeps code-point offsets of the original text around astral characters and invisible ones', () => {
    const text = '😀\u200b😀 john\u200b@example.com';
    const [f] = engine.scan(text, { entities: ['EMAIL_ADDRESS'] }).entities;
    expect(f).toMatchObject({ start: 4, end: 21 });
    expect(engine.scan(text).redacted_text).toBe('😀\u200b😀 <EMAIL_ADDRESS>');
  });

  it('maps a view span back through expansions (ligature) and removed marks', () => {
    const { views } = scanViews('a\ufb01b\u200bc');
    const [view] = views;
    expect(view?.text).toBe('afibc');
    expect(view?.toOriginal(1, 3)).toEqual([1, 2]);
    expect(view?.toOriginal(3, 5)).toEqual([2, 5]);
  });
});

/** Clean text with PII and astral filler; the same text with invisible characters inserted and digits made full-width. */
const sample = (rng: Rng) => {
  const pieces = Array.from({ length: int(rng, 2, 5) }, () =>
    pick(rng, [
      `mail ${pick(rng, ['ann', 'li.wei', 'j_doe'])}${int(rng, 1, 99)}@example.com`,
      `card ${creditCard(rng)}`,
      `ip 10.${int(rng, 0, 255)}.${int(rng, 0, 255)}.${int(rng, 1, 254)}`,
      'nothing here 😀 at all',
      'ref 😺 café',
    ]),
  );
  const clean = `${pieces.join('. ')}.`;
  const positions: number[] = []; // code-point index in `obfuscated` of each clean code point
  let obfuscated = '';
  let at = 0;
  for (const ch of clean) {
    while (rng() < 0.25) {
      obfuscated += pick(rng, INVISIBLE);
      at++;
    }
    positions.push(at);
    obfuscated += /\d/.test(ch) && rng() < 0.3 ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch;
    at++;
  }
  return { clean, obfuscated, positions };
};

const stripInvisible = (text: string): string => text.replace(/\p{Default_Ignorable_Code_Point}/gu, '').normalize('NFKC');

describe('property: random invisible insertions and full-width digits', () => {
  it('find the same entities, map offsets back exactly and redact well-formed text (300 seeded samples)', () => {
    const rng = seededRng(20261122);
    for (let i = 0; i < 300; i++) {
      const { clean, obfuscated, positions } = sample(rng);
      const expected = engine.scan(clean);
      const actual = engine.scan(obfuscated);
      const byPosition = (a: Finding, b: Finding) => a.start - b.start || a.type.localeCompare(b.type);
      const want = [...expected.entities].sort(byPosition);
      const got = [...actual.entities].sort(byPosition);
      const mapped = want.map((f) => ({ ...f, start: positions[f.start] as number, end: (positions[f.end - 1] as number) + 1 }));
      expect(got, obfuscated).toEqual(mapped);
      expect(actual.normalized).toBe(clean !== obfuscated);
      for (const [k, f] of got.entries()) expect(stripInvisible(spanText(obfuscated, f))).toBe(spanText(clean, want[k] as Finding));
      expect(stripInvisible(actual.redacted_text)).toBe(expected.redacted_text);
    }
  });
});

describe('block mode over a real loopback listener', () => {
  let t: TestServer;
  let base: string;
  beforeAll(async () => {
    t = await createTestServer({ env: { SVC_PII_ACTION: 'block' } });
    const address = await t.server.listen({ host: '127.0.0.1', port: 0 });
    base = address.replace('localhost', '127.0.0.1');
  });
  afterAll(async () => t.close());

  /** A real HTTP request on the socket (Host as the test server's origin expects). */
  const post = (text: string): Promise<{ status: number; json: () => unknown }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ text });
      const req = request(`${base}/v1/scan/pii`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...t.auth(), host: 'localhost:80' },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      });
      req.on('error', reject);
      req.end(body);
    });

  it.each([
    ['zero-width e-mail', 'john\u200b@example.com'],
    ['zero-width card', '4111\u200b1111\u200b1111\u200b1111'],
    ['full-width card', '４１１１１１１１１１１１１１１１'],
    ['reversed behind RLO', '\u202emoc.elpmaxe@nhoj\u202c'],
  ])('refuses %s with 422 PII_DETECTED', async (_label, value) => {
    const response = await post(`please forward ${value} to the team`);
    expect(response.status).toBe(422);
    expect(response.json()).toEqual({ error: 'PII_DETECTED' });
  });

  it('passes clean text and says whether it normalised', async () => {
    const response = await post('nothing\u200b to see');
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ detected: false, entities: [], redacted_text: 'nothing\u200b to see', normalized: true });
  });
});

describe('with Presidio configured', () => {
  it('sends Presidio the normalised text and maps its code-point findings back to the original', async () => {
    const presidio = await startFakePresidio();
    const t = await createTestServer({ env: { SVC_PRESIDIO_URL: presidio.url } });
    try {
      const text = '😀 mail john\u200b@example.com now';
      const response = await t.server.inject({
        method: 'POST',
        url: '/v1/scan/pii',
        headers: { 'content-type': 'application/json', ...t.auth() },
        payload: JSON.stringify({ text, entities: ['EMAIL_ADDRESS'] }),
      });
      expect(presidio.requests.at(-1)?.text).toBe('😀 mail john@example.com now');
      expect(response.json()).toEqual({
        detected: true,
        entities: [{ type: 'EMAIL_ADDRESS', start: 7, end: 24, score: 1 }],
        redacted_text: '😀 mail <EMAIL_ADDRESS> now',
        normalized: true,
      });
    } finally {
      await t.close();
      await presidio.close();
    }
  });
});
