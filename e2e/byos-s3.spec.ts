import { type LocalS3, startLocalS3 } from '../core/cec/storage/s3-server.test-support.ts';
import { test as base, expect } from './fixtures.ts';

/** This spec's `svc serve` stores bundles in a local S3-compatible server (SigV4-checking) started for it. */
const test = base.extend<object, { s3: LocalS3 }>({
  s3: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern; it has none
    async ({}, use) => {
      const s3 = await startLocalS3();
      await use(s3);
      await s3.close();
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ s3 }, use) => use(s3.env() as Record<string, string>), { scope: 'worker' }],
});

const project = 'byos-e2e';

test('a bundle stored in the bucket is listed by its s3:// URL and verifies from it on the Verify screen', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  await workbench.call('audit.append', {
    records: Array.from({ length: 4 }, (_, i) => ({
      project_id: project,
      schema_key: 'score_records',
      timestamp: `2026-03-0${1 + i}T09:00:00Z`,
      payload: { model_id: 'credit-risk', model_version: '3.2.0', metric: 'roc_auc', value: 0.9 + i / 100, dataset: 'holdout' },
    })),
  });
  const built = await workbench.call<{ bundle_id: string; download_url: string }>('cec.buildBundle', {
    project_id: project,
    date_range: ['2026-03-01', '2026-03-04'],
  });
  expect(built.download_url).toContain('X-Amz-Signature=');
  const { items } = await workbench.call<{ items: { stored_at: string }[] }>('cec.listBundles', {});
  const storedAt = items[0]?.stored_at ?? '';
  expect(storedAt).toMatch(/^s3:\/\/evidence-bucket\/team-a\/bundles\/cec-/);

  await workbench.login(page);
  await page.getByRole('link', { name: 'Bundles', exact: true }).click();
  await expect(page.getByRole('row').filter({ hasText: project })).toContainText(storedAt);
  await page.getByRole('link', { name: 'Verify', exact: true }).click();
  await page.getByLabel('Or a bundle URL', { exact: false }).fill(storedAt);
  await page.getByRole('button', { name: 'Download and verify' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Bundle is valid' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: built.bundle_id })).toBeVisible();
  await screenshotTo('verify-s3-url');

  // A URL outside the configured bucket is refused by the server (no fetch of arbitrary hosts).
  await page.getByLabel('Or a bundle URL', { exact: false }).fill('http://169.254.169.254/latest/meta-data/');
  await page.getByRole('button', { name: 'Download and verify' }).click();
  await expect(page.getByText('Remote callers may only verify bundles from the configured bucket')).toBeVisible();
});
