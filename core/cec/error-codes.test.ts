import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppError, SFCECBuildError } from '../errors.ts';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe } from './app-per-describe.test-support.ts';
import { SFCECClient } from './client.ts';
import { seedDays } from './test-support.ts';

/** A loopback port with nothing listening: the TSA is down. */
const closedPort = (): Promise<number> =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

let tsaUrl = '';
beforeAll(async () => {
  tsaUrl = `http://127.0.0.1:${await closedPort()}/tsa`;
});

describe.each(testBackends)('a TSA outage on $name', (backend) => {
  const fixture = appPerDescribe(backend, () => ({ SVC_TSA_URL: tsaUrl }));
  let client: SFCECClient;
  let t: TestServer;
  beforeAll(async () => {
    await seedDays(fixture().app, 'down', ['2026-07-01']);
    client = new SFCECClient({ app: fixture().app });
    t = await createTestServer({ app: fixture().app });
  });
  afterAll(async () => {
    await t.close();
  });

  const build = (url: string) =>
    t.server.inject({ method: 'POST', url, headers: t.auth(), payload: { project_id: 'down', date_range: ['2026-07-01', '2026-07-01'] } });

  describe('error codes survive every wrap (a TSA outage is UNAVAILABLE, 503)', () => {
    it('in process: SFCECBuildError with code UNAVAILABLE and the cause kept', async () => {
      const error = await client.buildBundle('down', ['2026-07-01', '2026-07-01']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SFCECBuildError);
      expect((error as AppError).code).toBe('UNAVAILABLE');
      expect((error as Error).cause).toBeInstanceOf(Error);
    });

    it('through the build worker thread: same class, same code, the original named in the cause', async () => {
      const error = await client.buildBundleAsync('down', ['2026-07-01', '2026-07-01']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SFCECBuildError);
      expect((error as AppError).code).toBe('UNAVAILABLE');
      expect((error as AppError).message).toMatch(/^Timestamp authority http:\/\/127\.0\.0\.1:\d+\/tsa failed: request failed/);
      expect(((error as Error).cause as Error).name).toBe('SFCECBuildError');
    });

    it('over HTTP: POST /v1/risk/cec and the op envelope answer 503 with the TSA named', async () => {
      const rest = await build('/v1/risk/cec');
      expect(rest.statusCode).toBe(503);
      expect(JSON.stringify(rest.json())).toMatch(/CEC build failed: Timestamp authority/);
      const op = await build('/api/ops/cec.buildBundle');
      expect(op.statusCode).toBe(503);
      expect(op.json()).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    });
  });
});

describe('error codes of a build', () => {
  it('a non-AppError inside a build stays INTERNAL (500): only real codes are carried', () => {
    expect(new SFCECBuildError('x', { cause: new Error('disk') }).code).toBe('INTERNAL');
  });
});
