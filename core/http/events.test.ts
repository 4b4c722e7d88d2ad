import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { type Listener, startListener } from './listen.ts';

let app: App;
let listener: Listener;
let key: string;
let keyId: string;

/** Subscribes with `secret`, emits `events`, and returns the progress data lines received before `until` arrives. */
const received = async (secret: string, emit: () => void, untilRequestId: string): Promise<Record<string, unknown>[]> => {
  const abort = new AbortController();
  const response = await fetch(`${listener.url}/api/events`, { headers: { authorization: `Bearer ${secret}` }, signal: abort.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body?.getReader();
  if (!reader) throw new Error('no body');
  await reader.read(); // ": connected"
  emit();
  let text = '';
  while (!text.includes(`"requestId":"${untilRequestId}"`)) text += new TextDecoder().decode((await reader.read()).value);
  abort.abort();
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
};

describe.each(testBackends)('progress events over server-sent events on $name', (backend) => {
  const apps = appPerTest(backend);
  beforeEach(async () => {
    app = apps().app;
    listener = await startListener(app, { port: 0, logRequests: false });
    ({ secret: key, id: keyId } = await createApiKey(app, { tier: 'api' }));
  });
  afterEach(() => listener.close());

  it('streams progress events to the actor that started the operation, and only to them', async () => {
    const events = await received(
      key,
      () => {
        app.events.emit('progress', { requestId: 'foreign', op: 'cec.build', done: 1, total: 2, message: '', actorId: 'key-other' });
        app.events.emit('progress', { requestId: 'r1', op: 'audit.importNdjson', done: 5, total: 10, message: 'half', actorId: keyId });
      },
      'r1',
    );
    expect(events).toEqual([{ requestId: 'r1', op: 'audit.importNdjson', done: 5, total: 10, message: 'half' }]);
  });

  it('lets an admin see every progress event', async () => {
    const admin = (await createApiKey(app, { tier: 'admin' })).secret;
    const events = await received(
      admin,
      () => {
        app.events.emit('progress', { requestId: 'a1', op: 'cec.build', done: 1, total: 2, message: '', actorId: 'key-other' });
        app.events.emit('progress', { requestId: 'a2', op: 'cec.build', done: 2, total: 2, message: '', actorId: keyId });
      },
      'a2',
    );
    expect(events.map((event) => event['requestId'])).toEqual(['a1', 'a2']);
  });

  it('refuses anonymous subscribers', async () => {
    expect((await fetch(`${listener.url}/api/events`)).status).toBe(401);
  });

  it('binds to loopback and advertises the 127.0.0.1 origin', () => {
    expect(listener.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
