import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type App, createApp } from '../app.ts';
import { startListener } from '../http/listen.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { postgresMigrations } from '../migrations.ts';
import { connectPostgres, postgresDatabase } from '../store/postgres-database.ts';
import { migratePostgres } from '../store/postgres-migrate.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { freshPostgresUrl } from '../test-support/postgres.ts';
import { exampleEvidence } from './examples.ts';
import { verifyChain } from './verify.ts';

/** A server instance as a client sees it: its loopback URL and an API key. */
type Instance = { readonly url: string; readonly key: string };

/** POSTs one batch; resolves to the record ids when the server acknowledged them (201), else to null. */
const post = async (instance: Instance, ids: readonly string[]): Promise<readonly string[] | null> => {
  try {
    const response = await fetch(`${instance.url}/v1/audit/records`, {
      method: 'POST',
      headers: { authorization: `Bearer ${instance.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(ids.map((record_id, i) => ({ ...exampleEvidence(i, 'shared'), record_id }))),
    });
    await response.arrayBuffer();
    return response.status === 201 ? ids : null;
  } catch {
    return null; // connection refused or reset: not acknowledged
  }
};

/** Sends `requests` batches of `size` records through `clients` concurrent clients per instance, round robin. */
const ingest = async (
  instances: readonly Instance[],
  options: { requests: number; size: number; clients: number; stop?: () => boolean },
): Promise<string[]> => {
  const acknowledged: string[] = [];
  let next = 0;
  const client = async (instance: Instance): Promise<void> => {
    while (next < options.requests && !options.stop?.()) {
      const request = next++;
      const ids = Array.from({ length: options.size }, (_, k) => `r${request}-${k}`);
      const acked = await post(instance, ids);
      if (acked !== null) acknowledged.push(...acked);
    }
  };
  await Promise.all(instances.flatMap((instance) => Array.from({ length: options.clients }, () => client(instance))));
  return acknowledged;
};

/** Every acknowledged record once, seq 1..n without gap or duplicate, and a chain that verifies. */
const expectOneTruth = async (app: App, acknowledged: readonly string[]): Promise<void> => {
  const rows = await app.database.all(
    z.object({ seq: z.number(), record_id: z.string() }),
    "SELECT seq, record_id FROM audit_records WHERE project_id = 'shared' ORDER BY seq",
  );
  expect(rows.map((row) => row.seq)).toEqual(rows.map((_, i) => i + 1));
  const stored = new Set(rows.map((row) => row.record_id));
  expect(stored.size).toBe(rows.length);
  expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  expect(new Set(acknowledged).size).toBe(acknowledged.length);
  expect(await verifyChain(app, 'shared')).toMatchObject({ valid: true, head_seq: rows.length, first_broken_seq: null });
};

// Several instances share one truth only through PostgreSQL (on SQLite one process owns the file; concurrency.test.ts
// covers several processes on one SQLite file).
describe.each(testBackends.filter((backend) => backend.name === 'postgres'))('instances on one $name database', (backend) => {
  const t = appPerTest(backend);

  it('two instances behind their own loopback listeners take thousands of concurrent appends to one project', async () => {
    const apps = [t().app, await t().second()];
    const listeners = await Promise.all(apps.map((app) => startListener(app, { port: 0, logRequests: false })));
    try {
      const instances = await Promise.all(
        apps.map(async (app, i) => ({
          url: (listeners[i] as { url: string }).url,
          key: (await createApiKey(app, { tier: 'api', scopes: [], name: `instance ${i}` })).secret,
        })),
      );
      const acknowledged = await ingest(instances, { requests: 800, size: 3, clients: 8 });
      expect(acknowledged).toHaveLength(2400);
      await expectOneTruth(apps[0] as App, acknowledged);
    } finally {
      await Promise.all(listeners.map((listener) => listener.close()));
    }
  }, 300_000);

  it('an instance killed with SIGKILL mid-ingest loses nothing it acknowledged', async () => {
    // A database of its own, whose URL the child process connects to.
    const url = await freshPostgresUrl();
    const pool = await connectPostgres(url, { source: 'test database', max: 4 });
    await migratePostgres(pool, postgresMigrations());
    const app = createApp({ dataDir: ':memory:', env: {}, database: postgresDatabase(pool) });
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./pg-instance.fixture.ts', import.meta.url).pathname, url], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const first = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`instance exited with ${code} before it listened`)));
      });
      const instance = z.object({ url: z.string(), key: z.string() }).parse(JSON.parse(first));
      let killed = false;
      const running = ingest([instance], { requests: 100_000, size: 5, clients: 8, stop: () => killed });
      // Kill it while requests are in flight, after it has acknowledged a fair number.
      const rows = z.object({ n: z.number() });
      while (((await app.database.one(rows, 'SELECT count(*) AS n FROM audit_records'))?.n ?? 0) < 1500) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      child.kill('SIGKILL');
      killed = true;
      const acknowledged = await running;
      expect(acknowledged.length).toBeGreaterThanOrEqual(1500);
      await expectOneTruth(app, acknowledged);
    } finally {
      child.kill('SIGKILL');
      await app.close();
      await pool.end();
    }
  }, 300_000);
});
