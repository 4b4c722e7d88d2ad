import { describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { startListener } from '../http/listen.ts';
import { createApiKey } from '../identity/api-keys/service.ts';
import { appPerTest, testBackends } from '../test-support/backends.ts';
import { expectOneTruth, ingest } from './ingest-clients.test-support.ts';

// Several instances share one truth only through PostgreSQL (on SQLite one process owns the file; concurrency.test.ts
// covers several processes on one SQLite file). Two real `svc serve` processes, and one killed mid-ingest:
// core/store/two-serve-instances.test.ts.
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
      const { acknowledged, failed } = await ingest(instances, { project: 'shared', requests: 800, size: 3, clients: 8 });
      expect(failed).toBe(0);
      expect(acknowledged).toHaveLength(2400);
      await expectOneTruth(apps[0] as App, 'shared', acknowledged);
    } finally {
      await Promise.all(listeners.map((listener) => listener.close()));
    }
  }, 300_000);
});
