import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { type Listener, startListener } from './listen.ts';

let app: App;
let listener: Listener;
let key: string;
beforeAll(async () => {
  app = createApp({ dataDir: ':memory:', env: {} });
  listener = await startListener(app, { port: 0, logRequests: false });
  key = createApiKey(app, { tier: 'api' }).secret;
});
afterAll(async () => {
  await listener.close();
  app.close();
});

describe('progress events over server-sent events', () => {
  it('streams progress events to an authenticated client', async () => {
    const abort = new AbortController();
    const response = await fetch(`${listener.url}/api/events`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    await reader.read(); // ": connected"
    app.events.emit('progress', { requestId: 'r1', op: 'audit.importNdjson', done: 5, total: 10, message: 'half' });
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: progress');
    expect(JSON.parse(text.split('data: ')[1]?.split('\n')[0] ?? '{}')).toMatchObject({ requestId: 'r1', done: 5, total: 10 });
    abort.abort();
  });

  it('refuses anonymous subscribers', async () => {
    expect((await fetch(`${listener.url}/api/events`)).status).toBe(401);
  });

  it('binds to loopback and advertises the 127.0.0.1 origin', () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
