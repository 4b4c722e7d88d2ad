import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type App, createApp } from '../app.ts';
import { servedUrl } from '../cli/spawn-svc.test-support.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { startListener } from './listen.ts';
import { buildServer } from './server.ts';

const root = join(import.meta.dirname, '..', '..');
const cleanups: (() => Promise<void> | void)[] = [];
const cleanUp = async (): Promise<void> => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
};
afterEach(cleanUp);

/**
 * A server whose body parsers and handlers are watched: `parsed` counts every request that reached parsing. On
 * `given` (a test's app on a back end) or, for what touches no storage, an in-memory SQLite app of its own.
 */
const watchedServer = async (
  given?: App,
  log?: App['log'],
): Promise<{ app: App; server: FastifyInstance; parsed: () => number; admin: string }> => {
  const app = given ?? createApp({ dataDir: ':memory:', env: {}, ...(log === undefined ? {} : { log }) });
  const server = await buildServer({ app, origin: () => 'http://localhost:80' });
  let parsed = 0;
  server.addHook('preParsing', async (_request, _reply, payload) => {
    parsed += 1;
    return payload;
  });
  server.get('/test/boom', { config: { svc: { access: { tier: 'public' }, errors: { body: 'detail' } } } }, async () => {
    throw new TypeError('boom from a handler');
  });
  await server.ready();
  cleanups.push(async () => {
    await server.close();
    if (given === undefined) await app.close();
  });
  return { app, server, parsed: () => parsed, admin: (await createApiKey(app, { tier: 'admin' })).secret };
};

describe('authentication comes before the body', () => {
  it('answers 401 to a large or malformed body without a credential, and never parses it', async () => {
    const { server, parsed } = await watchedServer();
    const huge = `[${'"x",'.repeat(3_000_000)}"x"]`; // 12 MB, under the audit route's 16 MB limit
    const cases = [
      { url: '/v1/audit/records', type: 'application/json', payload: huge },
      { url: '/v1/scan/pii', type: 'application/json', payload: '{"text": ' },
      { url: '/api/ops/keys.list', type: 'text/plain', payload: 'not json at all' },
      { url: '/v1/risk/cec/verify', type: 'application/zip', payload: 'PK not a zip' },
      { url: '/scim/v2/Users', type: 'application/scim+json', payload: '{bad' },
      { url: '/scim/v2/ServiceProviderConfig', type: 'application/scim+json', payload: '{bad' },
    ];
    for (const { url, type, payload } of cases) {
      const response = await server.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
      expect([url, response.statusCode]).toEqual([url, 401]);
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm=/);
      expect(response.headers.connection).toBe('close');
    }
    expect(parsed()).toBe(0);
  });

  it('answers 404 to a body sent to an unknown path, without parsing it', async () => {
    const { server, parsed } = await watchedServer();
    for (const url of ['/v1/nope', '/api/nope', '/nope']) {
      const response = await server.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: '{bad' });
      expect([url, response.statusCode]).toEqual([url, 404]);
      expect(response.headers.connection).toBe('close');
    }
    expect(parsed()).toBe(0);
  });
});

// Authentication reads API keys from storage: these run on each back end.
describe.each(testBackends)('authenticated requests on $name', (backend) => {
  const apps = appPerTest(backend);
  // Registered after appPerTest's: after-hooks run in reverse, so the servers close before their app.
  afterEach(cleanUp);

  describe('tier checks before the body', () => {
    it('refuses a too-low tier with 403 before parsing, and parses once access is granted', async () => {
      const { app, server, parsed, admin } = await watchedServer(apps().app);
      const free = (await createApiKey(app, { tier: 'free' })).secret;
      const denied = await server.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { authorization: `Bearer ${free}`, 'content-type': 'application/json' },
        payload: '{broken',
      });
      expect(denied.statusCode).toBe(403);
      expect(parsed()).toBe(0);
      const malformed = await server.inject({
        method: 'POST',
        url: '/v1/keys',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        payload: '{broken',
      });
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json()).toEqual({ error: 'Malformed JSON body' });
      expect(parsed()).toBe(1);
    });
  });

  describe('SCIM methods and paths', () => {
    const scimHeaders = (key: string) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/scim+json' });

    it('answers 405 with Allow and a SCIM error for every unsupported method, before reading the body', async () => {
      const { server, parsed, admin } = await watchedServer(apps().app);
      const cases: [string, string, string][] = [
        ['POST', '/scim/v2/ServiceProviderConfig', 'GET'],
        ['POST', '/scim/v2/Schemas', 'GET'],
        ['DELETE', '/scim/v2/ResourceTypes', 'GET'],
        ['PUT', '/scim/v2/ResourceTypes/User', 'GET'],
        ['PUT', '/scim/v2/Users', 'GET, POST'],
        ['PATCH', '/scim/v2/Groups', 'GET, POST'],
        ['POST', '/scim/v2/Users/some-id', 'GET, PUT, PATCH, DELETE'],
        ['GET', '/scim/v2/Users/.search', 'POST'],
      ];
      for (const [method, url, allow] of cases) {
        const response = await server.inject({ method: method as 'POST', url, headers: scimHeaders(admin), payload: '{not json' });
        expect([method, url, response.statusCode, response.headers.allow]).toEqual([method, url, 405, allow]);
        expect(response.headers['content-type']).toContain('application/scim+json');
        expect(response.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '405' });
      }
      expect(parsed()).toBe(0);
    });

    it('answers unknown SCIM paths with a SCIM 404 body, after authentication', async () => {
      const { server, admin } = await watchedServer(apps().app);
      for (const url of ['/scim/v2/Widgets', '/scim/v2/Users/a/b', '/scim/v2/']) {
        const response = await server.inject({ method: 'GET', url, headers: scimHeaders(admin) });
        expect([url, response.statusCode]).toEqual([url, 404]);
        expect(response.json()).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], status: '404' });
        expect((await server.inject({ method: 'GET', url })).statusCode).toBe(401);
      }
    });
  });
});

describe.each(testBackends)('a body deadline for authenticated requests on $name', (backend) => {
  const slowBodyApps = appPerTest(backend, { env: { SVC_HTTP_BODY_TIMEOUT_SECONDS: '2' } });
  afterEach(cleanUp);

  it('closes a connection whose body trickles past the body deadline, even when authenticated', async () => {
    const { app } = slowBodyApps();
    const listener = await startListener(app, { port: 0, logRequests: false });
    cleanups.push(() => listener.close());
    const admin = (await createApiKey(app, { tier: 'admin' })).secret;
    const { port } = new URL(listener.url);
    const socket = connect(Number(port), '127.0.0.1');
    // The server cutting the connection mid-body may reach this end as a reset (ECONNRESET) rather than a FIN:
    // either is the expected outcome, observed below as 'close'.
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/ops/keys.list HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
    );
    const started = Date.now();
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed && sent < 99) {
        socket.write(' ');
        sent += 1;
      }
    }, 200);
    await new Promise((resolve) => socket.once('close', resolve));
    clearInterval(trickle);
    const elapsed = Date.now() - started;
    // Closed by the deadline (2 s), long before the 100 bytes at 5 per second (20 s) were through.
    expect(sent).toBeLessThan(99);
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(elapsed).toBeLessThan(15_000);
  }, 30_000);
});

describe('one error handler', () => {
  it('logs a 5xx with its stack and request id and answers in the route shape', async () => {
    const lines: string[] = [];
    const { server } = await watchedServer(undefined, pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }));
    const response = await server.inject({ method: 'GET', url: '/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ detail: 'Internal error' });
    const logged = lines.map((line) => JSON.parse(line) as { requestId?: string; err?: { stack?: string } });
    const entry = logged.find((line) => line.requestId === response.headers['x-request-id']);
    expect(entry?.err?.stack).toContain('boom from a handler');
  });
});

/** Peak resident memory of a process (VmHWM), in bytes. */
const peakRss = (pid: number): number => {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]) * 1024;
};

/** Starts `svc serve` on a free port in its own process; resolves with its URL (read from the login link on stderr). */
const serveProcess = async (env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcess; url: string }> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-pipeline-'));
  const child = spawn(process.execPath, [join(root, 'bin', 'svc.js'), 'serve', '--port', '0', '--data-dir', dataDir], {
    env: { ...process.env, SVC_LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = await servedUrl(child);
  return { child, url };
};

/** POSTs `total` bytes in 64 KiB chunks (one shared buffer, so the client holds no copies); resolves with the status or the error. */
const streamPost = (url: string, path: string, total: number): Promise<number | string> =>
  new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const request = httpRequest(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(total) },
    });
    let sent = 0;
    let done = false;
    const finish = (value: number | string): void => {
      if (!done) resolve(value);
      done = true;
    };
    request.on('response', (response) => {
      response.resume();
      finish(response.statusCode ?? 0);
    });
    request.on('error', (error) => finish((error as NodeJS.ErrnoException).code ?? error.message));
    const pump = (): void => {
      while (sent < total && !done) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (sent >= total) request.end();
    };
    pump();
  });

describe('memory and sockets under hostile bodies (real listener)', () => {
  it('keeps the server RSS bounded under 16 parallel 16 MB unauthenticated POSTs', async () => {
    const { child, url } = await serveProcess();
    const pid = child.pid as number;
    expect((await fetch(`${url}/v1/svc/status`)).status).toBe(200);
    const before = peakRss(pid);
    const outcomes = await Promise.all(Array.from({ length: 16 }, () => streamPost(url, '/v1/audit/records', 16 * 1024 * 1024)));
    const grown = peakRss(pid) - before;
    // Every request is refused: a 401, or the connection closed under a client still writing.
    for (const outcome of outcomes) expect([401, 'EPIPE', 'ECONNRESET']).toContain(outcome);
    expect(outcomes).toContain(401);
    // Buffering the bodies would cost 256 MB; a generous bound for sockets and bookkeeping.
    expect(grown).toBeLessThan(64 * 1024 * 1024);
    expect((await fetch(`${url}/v1/svc/status`)).status).toBe(200);
  }, 60_000);

  it('answers a request that takes longer than the idle timeout, and still closes a silent connection', async () => {
    const app = createApp({ dataDir: ':memory:', env: { SVC_HTTP_IDLE_TIMEOUT_SECONDS: '1' } });
    let port = 0;
    const server = await buildServer({ app, origin: () => `http://127.0.0.1:${port}` });
    // The status route stands in for a long build: its answer comes 2.5 s after the request, 1.5 s past the timeout.
    server.addHook('preHandler', async (request) => {
      if (request.url === '/v1/svc/status') await new Promise((resolve) => setTimeout(resolve, 2500));
    });
    await server.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(async () => {
      await server.close();
      app.close();
    });
    port = (server.server.address() as { port: number }).port;
    const response = await fetch(`http://127.0.0.1:${port}/v1/svc/status`);
    expect(response.status).toBe(200);
    const silent = connect(port, '127.0.0.1');
    const started = Date.now();
    await new Promise((resolve) => silent.once('close', resolve));
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
