import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { examplePayloads } from '../core/audit/examples.ts';
import { expect, test } from './fixtures.ts';

const project = 'evidence-e2e';
// Three keys of the documented examples, so the import carries records the ingest accepts as they are.
const payloads: Record<string, Record<string, unknown>> = {
  score_records: examplePayloads.score_records,
  drift_events: examplePayloads.drift_events,
  pii_detections: examplePayloads.pii_detections,
};
const keys = Object.keys(payloads);

/** 30 lines without project_id (the import form supplies it), one a day from 2026-01-01. */
const ndjson = Array.from({ length: 30 }, (_, i) => {
  const key = keys[i % keys.length] as string;
  const day = String(1 + i).padStart(2, '0');
  return JSON.stringify({ schema_key: key, record_id: `e2e-${i}`, timestamp: `2026-01-${day}T08:00:00Z`, payload: payloads[key] });
}).join('\n');

test('import an NDJSON file, browse the records with filters and paging, see a verified chain', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  const file = join(workbench.dataDir, 'evidence.ndjson');
  writeFileSync(file, `${ndjson}\n`);
  await workbench.login(page);
  await page.getByRole('link', { name: 'Evidence', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Evidence records' })).toBeVisible();

  await page.getByLabel('NDJSON file').setInputFiles(file);
  await page.getByLabel('Project for lines without project_id').fill(project);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toHaveText(`Imported 30 records: ${project} seq 1–30`);

  // The import selects the project, shows the first page and verifies the chain.
  await expect(page.getByRole('status').filter({ hasText: 'Chain verified' })).toContainText('30 records re-hashed, head seq 30');
  await expect(page.getByText('Page 1 of 2 (30 records)')).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(26);
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByText('Page 2 of 2 (30 records)')).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(6);

  await page.getByLabel('Schema key').selectOption('drift_events');
  await page.getByLabel('From (UTC)').fill('2026-01-05');
  await page.getByLabel('To (UTC)').fill('2026-01-14');
  await page.getByRole('button', { name: 'Show records' }).click();
  // Both ends are inclusive: drift events fall on Jan 2, 5, 8, 11, 14, 17...
  await expect(page.getByText('Page 1 of 1 (4 records)')).toBeVisible();
  await expect(page.getByText('income: psi 0.27 vs 0.2, drift detected')).toHaveCount(4);
  await expect(page.getByRole('cell', { name: '2026-01-05 08:00:00Z' })).toBeVisible();
  await expect(page.getByRole('cell', { name: '2026-01-14 08:00:00Z' })).toBeVisible();
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Chain verified' })).toBeVisible();
  await screenshotTo('evidence');

  // A file with a bad line imports nothing and names the line.
  const bad = join(workbench.dataDir, 'bad.ndjson');
  writeFileSync(bad, `${ndjson.split('\n')[0]?.replace('e2e-0', 'fresh-0')}\n{"schema_key":"drift_events"}\n`);
  await page.getByLabel('NDJSON file').setInputFiles(bad);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('nothing was imported; line 2:');
});
