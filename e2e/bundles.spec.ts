import { join } from 'node:path';
import { readAllEntries, writeEntries } from '../core/cec/zip-fixtures.ts';
import { expect, test } from './fixtures.ts';

const project = 'bundles-e2e';
const payloads: Record<string, Record<string, unknown>> = {
  score_records: { model_id: 'credit-risk', model_version: '3.2.0', metric: 'roc_auc', value: 0.913, dataset: 'loans-holdout' },
  drift_events: { model_id: 'credit-risk', feature: 'income', statistic: 'psi', value: 0.27, threshold: 0.2, detected: true },
  gate_evaluations: {
    gate: 'release',
    model_id: 'credit-risk',
    model_version: '3.2.0',
    decision: 'pass',
    criteria: [{ name: 'auc', passed: true }],
  },
};

test('build a bundle, verify it, then verify a tampered copy', async ({ page, workbench, screenshotTo }) => {
  const keys = Object.keys(payloads);
  await workbench.call('audit.append', {
    records: Array.from({ length: 12 }, (_, i) => ({
      project_id: project,
      schema_key: keys[i % keys.length],
      timestamp: `2026-03-${String(1 + i).padStart(2, '0')}T09:00:00Z`,
      payload: payloads[keys[i % keys.length] as string],
    })),
  });
  await workbench.login(page);
  await page.getByRole('link', { name: 'Bundles', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Evidence bundles' })).toBeVisible();

  await page.getByLabel('Project').fill(project);
  await page.getByLabel('From').fill('2026-03-02');
  await page.getByLabel('To').fill('2026-03-10');
  await expect(page.getByRole('checkbox')).toHaveCount(5);
  await page.getByLabel('NIST AI RMF', { exact: false }).uncheck();
  await page.getByRole('button', { name: 'Build bundle' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Built cec-' })).toBeVisible({ timeout: 30_000 });
  const row = page.getByRole('row').filter({ hasText: project });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('2026-03-02 – 2026-03-10');
  await expect(row.getByRole('cell').nth(3)).toHaveText('9');
  await expect(row).toContainText('valid');
  await screenshotTo('bundles');

  const { items } = await workbench.call<{ items: { bundle_id: string; zip_path: string }[] }>('cec.listBundles', {});
  const bundle = items[0] as { bundle_id: string; zip_path: string };
  await row.getByRole('button', { name: `Reissue ${bundle.bundle_id}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'now expires' })).toBeVisible();

  await page.getByRole('link', { name: 'Verify', exact: true }).click();
  await page.getByLabel('Bundle ZIP file').setInputFiles(bundle.zip_path);
  await expect(page.getByRole('status').filter({ hasText: 'Bundle is valid' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('list', { name: 'Checks' }).getByRole('listitem').filter({ hasText: 'fail' })).toHaveCount(0);
  await screenshotTo('verify-valid');

  const entries = await readAllEntries(bundle.zip_path);
  const records = (entries.get('drift_events/records.ndjson') as Buffer).toString('utf8');
  entries.set('drift_events/records.ndjson', Buffer.from(records.replace('"value":0.27', '"value":0.02')));
  const tampered = join(workbench.dataDir, 'tampered-bundle.zip');
  await writeEntries(tampered, entries);
  await page.getByLabel('Bundle ZIP file').setInputFiles(tampered);
  await expect(page.getByRole('status').filter({ hasText: 'Bundle is NOT valid' })).toBeVisible({ timeout: 30_000 });
  const checks = page.getByRole('list', { name: 'Checks' });
  await expect(checks).toContainText('SHA-256 of drift_events/records.ndjson does not match the manifest');
  await expect(checks).toContainText('hash does not match its content');
  await screenshotTo('verify-tampered');
});
