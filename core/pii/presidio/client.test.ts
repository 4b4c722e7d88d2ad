import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PresidioUnavailableError, presidioAnalyze, presidioHealthy, presidioSupportedEntities } from './client.ts';
import { type FakePresidio, startFakePresidio } from './test/fake-presidio.ts';

let presidio: FakePresidio;
beforeAll(async () => {
  presidio = await startFakePresidio();
});
afterAll(async () => {
  await presidio.close();
});

describe('presidioAnalyze', () => {
  it('sends Presidio’s request shape and maps its results to findings (code point offsets)', async () => {
    presidio.mode = 'ok';
    const text = '😀 Alice wrote to alice@example.com';
    const found = await presidioAnalyze(presidio.url, {
      text,
      language: 'en',
      entities: ['EMAIL_ADDRESS', 'PERSON'],
      score_threshold: 0.3,
      return_decision_process: true,
    });
    expect(presidio.requests.at(-1)).toEqual({
      text,
      language: 'en',
      entities: ['EMAIL_ADDRESS', 'PERSON'],
      score_threshold: 0.3,
      return_decision_process: true,
    });
    expect(found.map((f) => [f.type, [...text].slice(f.start, f.end).join(''), f.score])).toEqual([
      ['EMAIL_ADDRESS', 'alice@example.com', 1],
      ['PERSON', 'Alice', 0.85],
    ]);
    expect(found[0]?.explanation?.recognizer).toBe('presidio:EmailRecognizer');
  });

  it('treats a 5xx as unavailable', async () => {
    presidio.mode = 'error';
    await expect(presidioAnalyze(presidio.url, { text: 'x', language: 'en' })).rejects.toBeInstanceOf(PresidioUnavailableError);
  });

  it('gives up after its deadline when Presidio hangs', async () => {
    presidio.mode = 'hang';
    const started = Date.now();
    await expect(presidioAnalyze(presidio.url, { text: 'x', language: 'en' }, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('treats a refused connection as unavailable', async () => {
    await expect(presidioAnalyze('http://127.0.0.1:1', { text: 'x', language: 'en' })).rejects.toThrow(/unreachable/);
  });
});

describe('presidio health and entities', () => {
  it('reports health and supported entities', async () => {
    presidio.mode = 'ok';
    expect(await presidioHealthy(presidio.url)).toBe(true);
    expect(await presidioSupportedEntities(presidio.url, 'en')).toEqual(['EMAIL_ADDRESS', 'PERSON']);
    presidio.mode = 'error';
    expect(await presidioHealthy(presidio.url)).toBe(false);
    expect(await presidioHealthy('http://127.0.0.1:1')).toBe(false);
    expect(await presidioSupportedEntities('http://127.0.0.1:1', 'en')).toEqual([]);
  });
});
