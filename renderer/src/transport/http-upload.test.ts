import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpTransport } from './http.ts';

// A real loopback server answering the upload route as the core does: the verification, or the spec's { detail }.
let server: Server;
let base = '';
const received: { type: string | undefined; bytes: number }[] = [];
beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ type: request.headers['content-type'], bytes: body.length });
      const [status, reply] =
        body.toString() === 'big'
          ? [413, '{"detail":"request_too_large"}']
          : body.toString() === 'html'
            ? [502, '<html>']
            : [200, '{"valid":true}'];
      response.writeHead(status, { 'Content-Type': 'application/json' }).end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the browser Transport streams a bundle to the upload route', () => {
  it('sends the raw ZIP and returns the verification', async () => {
    const result = await httpTransport(base).verifyBundleFile(new Blob(['PK-bytes']));
    expect(result).toEqual({ ok: true, value: { valid: true } });
    expect(received.at(-1)).toEqual({ type: 'application/zip', bytes: 8 });
  });

  it("turns the route's status and detail into an error code and message", async () => {
    expect(await httpTransport(base).verifyBundleFile(new Blob(['big']))).toEqual({
      ok: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'request_too_large' },
    });
    expect(await httpTransport(base).verifyBundleFile(new Blob(['html']))).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('reports an unreachable server instead of throwing', async () => {
    const result = await httpTransport('http://127.0.0.1:1').verifyBundleFile(new Blob(['x']));
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE', message: expect.stringContaining('Cannot reach') } });
  });
});
