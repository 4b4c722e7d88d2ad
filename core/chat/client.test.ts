import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chatCompletion, retryDelaySeconds } from './client.ts';
import { type OpenAiTestServer, startOpenAiTestServer } from './test/openai-test-server.ts';

const user = [{ role: 'user', content: 'hello' }];

let provider: OpenAiTestServer;
let delays: number[];
const sleep = async (ms: number): Promise<void> => void delays.push(ms / 1000);

beforeAll(async () => {
  provider = await startOpenAiTestServer();
});
afterAll(async () => provider.close());
beforeEach(() => {
  delays = [];
  provider.requests.length = 0;
});

describe('chatCompletion (spec 2.1, 4.1, 8)', () => {
  it('returns text, token usage and latency on success, frozen and ok', async () => {
    provider.enqueue({ kind: 'ok', text: 'hi there', promptTokens: 11, completionTokens: 4 });
    const reply = await chatCompletion(provider.url, 'm1', user, { apiKey: 'k-1', sleep });
    expect(reply).toMatchObject({ text: 'hi there', error: null, prompt_tokens: 11, completion_tokens: 4, total_tokens: 15, ok: true });
    expect(reply.latency_ms).toBeGreaterThan(0);
    expect(Object.isFrozen(reply)).toBe(true);
    expect(provider.requests[0]?.path).toBe('/v1/chat/completions');
  });

  it('sends model, messages and extra_body merged at top level, with the bearer key', async () => {
    await chatCompletion(`${provider.url}/`, 'gpt-x', user, { apiKey: 'secret-1', extraBody: { temperature: 0.2, stream: false }, sleep });
    const request = provider.requests[0];
    expect(request?.authorization).toBe('Bearer secret-1');
    expect(request?.body).toEqual({ model: 'gpt-x', messages: user, temperature: 0.2, stream: false });
  });

  it('falls back to PROVIDER_API_KEY when no key is given, and sends none when neither exists', async () => {
    await chatCompletion(provider.url, 'm', user, { env: { PROVIDER_API_KEY: 'from-env' }, sleep });
    await chatCompletion(provider.url, 'm', user, { env: {}, sleep });
    expect(provider.requests.map((request) => request.authorization)).toEqual(['Bearer from-env', undefined]);
  });

  it.each([429, 500, 502, 503, 504])('retries on %i and succeeds', async (status) => {
    provider.failTimes(2, status);
    const reply = await chatCompletion(provider.url, 'm', user, { sleep });
    expect(reply.ok).toBe(true);
    expect(provider.requests).toHaveLength(3);
    expect(delays).toEqual([2, 4]);
  });

  it('waits 2, 4, 8 s with the default 3 retries, then reports the error (4 requests)', async () => {
    provider.failTimes(4, 503);
    const reply = await chatCompletion(provider.url, 'm', user, { sleep });
    expect(delays).toEqual([2, 4, 8]);
    expect(provider.requests).toHaveLength(4);
    expect(reply.ok).toBe(false);
    expect(reply.text).toBe('');
    expect(reply.error).toContain('503');
  });

  it('waits 2, 4, 8, 8, 8 s with maxRetries 5', async () => {
    provider.failTimes(6, 500);
    const reply = await chatCompletion(provider.url, 'm', user, { sleep, maxRetries: 5 });
    expect(delays).toEqual([2, 4, 8, 8, 8]);
    expect(provider.requests).toHaveLength(6);
    expect(reply.error).toContain('500');
  });

  it.each([400, 401, 404])('does not retry %i and returns the error at once', async (status) => {
    provider.failTimes(1, status);
    const reply = await chatCompletion(provider.url, 'm', user, { sleep });
    expect(provider.requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(reply).toMatchObject({ ok: false, text: '', total_tokens: 0 });
    expect(reply.error).toContain(String(status));
  });

  it('retries when the connection is reset', async () => {
    provider.enqueue({ kind: 'reset' });
    const reply = await chatCompletion(provider.url, 'm', user, { sleep });
    expect(reply.ok).toBe(true);
    expect(delays).toEqual([2]);
  });

  it('retries a request that hangs past the per-attempt timeout', async () => {
    provider.enqueue({ kind: 'hang' });
    const reply = await chatCompletion(provider.url, 'm', user, { sleep, timeout: 0.2 });
    expect(reply.ok).toBe(true);
    expect(provider.requests).toHaveLength(2);
    expect(delays).toEqual([2]);
  });

  it('reports a timeout as an error after the retries, never throwing', async () => {
    provider.enqueue({ kind: 'hang' }, { kind: 'hang' });
    const reply = await chatCompletion(provider.url, 'm', user, { sleep, timeout: 0.1, maxRetries: 1 });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/Timed out/);
  });

  it('retries connection refused (OS error) and reports it', async () => {
    const reply = await chatCompletion('http://127.0.0.1:1', 'm', user, { sleep, maxRetries: 2 });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/Network error/);
    expect(delays).toEqual([2, 4]);
  });

  it('returns malformed JSON as an error without retrying', async () => {
    provider.enqueue({ kind: 'malformed' });
    const reply = await chatCompletion(provider.url, 'm', user, { sleep });
    expect(reply.ok).toBe(false);
    expect(reply.error).toMatch(/Malformed reply/);
    expect(provider.requests).toHaveLength(1);
  });

  it('rejects an endpoint that is not an http(s) URL as an error value', async () => {
    const reply = await chatCompletion('ftp://example', 'm', user, { sleep });
    expect(reply).toMatchObject({ ok: false, text: '' });
  });

  it('computes the delay as min(2**attempt, 8)', () => {
    expect([1, 2, 3, 4, 5, 10].map(retryDelaySeconds)).toEqual([2, 4, 8, 8, 8, 8]);
  });
});
