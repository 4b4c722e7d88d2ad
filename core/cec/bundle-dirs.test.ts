import { existsSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, type TestServer } from '../http/test-support.ts';
import { testBackends } from '../test-support/backends.ts';
import { appPerDescribe } from './app-per-describe.test-support.ts';
import { seedDays } from './test-support.ts';

describe.each(testBackends)('bundle files on $name', (backend) => {
  const fixture = appPerDescribe(backend, {}, { now: () => new Date('2026-06-10T08:00:00.000Z') });
  let t: TestServer;
  beforeAll(async () => {
    t = await createTestServer({ app: fixture().app });
    await seedDays(fixture().app, 'proj_x', ['2026-06-01']);
    await seedDays(fixture().app, 'proj:x', ['2026-06-02']);
  });
  afterAll(async () => {
    await t.close();
  });

  const build = (payload: Record<string, unknown>) =>
    t.server.inject({ method: 'POST', url: '/v1/risk/cec', headers: t.auth(), payload: { org_id: 'acme', ...payload } });

  describe('bundle files and path input hygiene', () => {
    it('keeps each bundle in its own directory: project ids that map to one file name neither collide nor delete each other', async () => {
      const first = (await build({ project_id: 'proj_x' })).json() as { bundle_id: string; zip_path: string };
      const second = (await build({ project_id: 'proj:x' })).json() as { bundle_id: string; zip_path: string };
      expect(basename(first.zip_path)).toBe(basename(second.zip_path));
      expect(basename(dirname(first.zip_path))).toBe(first.bundle_id);
      expect(basename(dirname(second.zip_path))).toBe(second.bundle_id);
      expect(existsSync(first.zip_path) && existsSync(second.zip_path)).toBe(true);
      for (const { bundle_id } of [first, second]) {
        const download = await t.server.inject({ method: 'GET', url: `/v1/risk/cec/${bundle_id}/download`, headers: t.auth() });
        expect(download.statusCode).toBe(200);
      }
    });

    it('answers 422 to control characters in output_dir and zip_path instead of failing in the file system', async () => {
      for (const output_dir of ['a\u0000b', 'x\ny', 'tab\there', '\u001b[31m']) {
        const res = await build({ project_id: 'proj_x', output_dir });
        expect(res.statusCode).toBe(422);
        expect(res.json().detail).toContain('control characters');
      }
      const verify = await t.server.inject({
        method: 'POST',
        url: '/api/ops/cec.verifyBundle',
        headers: t.auth(),
        payload: { zip_path: 'bundle\u0000.zip' },
      });
      expect(verify.json().error).toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('control characters') });
    });
  });
});
