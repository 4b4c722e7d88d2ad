import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../../core/http/test-support.ts';
import { type InvokeEvent, registerOps } from './register-ops.ts';

/** A stand-in for Electron's ipcMain: records the handler so tests can invoke it as a renderer would. */
const fakeIpcMain = () => {
  const handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>>();
  return {
    handle: (channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => Promise<unknown>) =>
      void handlers.set(channel, listener),
    invoke: (frameUrl: string | null, ...args: unknown[]) =>
      handlers.get('ops:call')?.({ senderFrame: frameUrl === null ? null : { url: frameUrl } }, ...args),
  };
};

let t: TestServer;
const ipc = fakeIpcMain();
const trusted = 'svc-app://renderer/index.html';

beforeAll(async () => {
  t = await createTestServer();
  registerOps(ipc, t.app, (url) => url.startsWith('svc-app://renderer/'));
});
afterAll(async () => t.close());

const viaHttp = async (name: string, input: unknown): Promise<unknown> =>
  (await t.server.inject({ method: 'POST', url: `/api/ops/${name}`, headers: t.auth(), payload: input as object })).json();

describe('IPC and HTTP adapters give identical results', () => {
  const cases: [string, unknown][] = [
    ['keys.list', {}],
    ['keys.create', { tier: 'nope' }],
    ['keys.revoke', { id: 'key-missing' }],
    ['no.such.op', {}],
    ['settings.update', { values: { piiAction: 'shout' } }],
    ['chat.complete', { messages: [] }],
  ];
  it.each(cases)('%s', async (name, input) => {
    // HTTP first: its authentication stamps the admin key's last_used_at, which keys.list then shows to both.
    const httpResult = await viaHttp(name, input);
    const ipcResult = await ipc.invoke(trusted, name, input);
    expect(ipcResult).toEqual(httpResult);
    expect(ipcResult).toHaveProperty('ok');
  });

  it('a write through IPC is visible through HTTP', async () => {
    const created = (await ipc.invoke(trusted, 'keys.create', { tier: 'free', name: 'via ipc' })) as { ok: true; value: { id: string } };
    expect(created.ok).toBe(true);
    const listed = (await viaHttp('keys.list', {})) as { value: { id: string }[] };
    expect(listed.value.map((key) => key.id)).toContain(created.value.id);
  });

  it('refuses calls from frames other than the app page', async () => {
    expect(await ipc.invoke('https://evil.example/', 'keys.list', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await ipc.invoke(null, 'keys.list', {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});
