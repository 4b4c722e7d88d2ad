import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, openDatabaseApp } from '../app.ts';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { postgresMigrations } from '../migrations.ts';
import { freshPostgresUrl, postgresUnavailable } from '../test-support/postgres.ts';
import { type TcpCut, tcpCut } from '../test-support/tcp-cut.ts';
import { connectPostgres, postgresDatabase } from './postgres-database.ts';
import { migratePostgres } from './postgres-migrate.ts';

/** Polled, not slept: reconnecting takes a few hundred milliseconds here, longer on a loaded machine. */
const eventually = { timeout: 20_000, interval: 100 };
const unavailable = {
  ok: false,
  error: { code: 'UNAVAILABLE', message: 'The database is unavailable; nothing was changed by this request' },
};

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** An app on a fresh, migrated PostgreSQL database that it reaches only through `relay`, served over HTTP. */
const serveThroughRelay = async (): Promise<{ relay: TcpCut; t: TestServer; app: App; direct: string }> => {
  const direct = await freshPostgresUrl();
  const setup = await connectPostgres(direct, { source: 'test database', max: 1 });
  await migratePostgres(setup, postgresMigrations());
  await setup.end();
  const relay = await tcpCut(direct);
  cleanup.push(() => relay.close());
  const pool = await connectPostgres(relay.url, { source: 'SVC_DATABASE_URL', max: 4, connectTimeoutMs: 5000 });
  const app = await openDatabaseApp({ dataDir: ':memory:', env: {} }, postgresDatabase(pool), { closeDatabase: true });
  cleanup.push(() => app.close());
  const t = await createTestServer({ app });
  cleanup.push(() => t.close());
  return { relay, t, app, direct };
};

describe.skipIf(postgresUnavailable !== undefined)('a PostgreSQL outage seen over HTTP', () => {
  it('answers 503 mid-request, changes nothing, loses nothing acknowledged, and recovers when the database is back', async () => {
    const { relay, t, app, direct } = await serveThroughRelay();
    const update = (values: Record<string, string>) =>
      t.server.inject({ method: 'POST', url: '/api/ops/settings.update', headers: t.auth(), payload: { values } });

    const ready = () => t.server.inject({ method: 'GET', url: '/v1/svc/ready' });
    expect((await ready()).json()).toEqual({ status: 'ok', database: 'postgres' });
    const acknowledged = await update({ chatModel: 'before-the-outage' });
    expect(acknowledged.statusCode).toBe(200);

    // The link hangs while the update's transaction is on its way, then the database host goes away.
    relay.hold();
    const inFlight = update({ chatModel: 'during-the-outage' });
    await expect.poll(() => relay.heldBytes, eventually).toBeGreaterThan(0);
    relay.cut();
    const failed = await inFlight;
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject(unavailable);

    // While it is down, a new request cannot even connect: 503 as well, with the same body.
    const refused = await update({ piiAction: 'block' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject(unavailable);
    // The readiness route tells the load balancer to send traffic elsewhere.
    const notReady = await ready();
    expect(notReady.statusCode).toBe(503);
    expect(JSON.stringify(notReady.json())).toContain('The database is unavailable');
    // Checking the API key needs the database too, so even a read answers 503; the instance keeps its settings.
    const read = await t.server.inject({ method: 'POST', url: '/api/ops/settings.get', headers: t.auth(), payload: {} });
    expect(read.statusCode).toBe(503);
    expect(app.settings.get().chatModel).toBe('before-the-outage');

    relay.restore();
    await expect.poll(async () => (await ready()).statusCode, eventually).toBe(200);
    expect((await update({ piiAction: 'flag' })).statusCode).toBe(200);

    // What the database holds, read past the relay: the acknowledged change and the one after recovery only.
    const check = postgresDatabase(await connectPostgres(direct, { source: 'test database', max: 1 }));
    cleanup.push(() => check.close());
    const rows = await check.all(z.object({ key: z.string(), value: z.string() }), 'SELECT key, value FROM settings ORDER BY key');
    expect(rows).toEqual([
      { key: 'chatModel', value: '"before-the-outage"' },
      { key: 'piiAction', value: '"flag"' },
    ]);
    expect(app.settings.get()).toMatchObject({ chatModel: 'before-the-outage', piiAction: 'flag' });
  });
});

describe('readiness on SQLite', () => {
  it('answers 200 without a credential, naming the back end', async () => {
    const t = await createTestServer();
    cleanup.push(() => t.close());
    const response = await t.server.inject({ method: 'GET', url: '/v1/svc/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'sqlite' });
  });
});
