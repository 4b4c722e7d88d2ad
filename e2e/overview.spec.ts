import { readFileSync } from 'node:fs';
import { oscalErrors } from '../core/cec/oscal/test/validate.ts';
import { expect, test } from './fixtures.ts';

// A server of its own (a distinct worker option), so the first-run state is really empty.
test.use({ serverEnv: { SVC_LOG_LEVEL: 'error' } });

const sample = 'sample-credit-ai';

test('overview: first run offers the sample; the sample fills chart, chain, heatmap, alerts; click-through and removal', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  await workbench.login(page);
  // The landing page is the Overview; with no evidence it offers the sample project.
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No evidence yet' })).toBeVisible();
  await screenshotTo('overview-first-run');

  await page.getByRole('button', { name: 'Load a sample project' }).click();
  await expect(page.getByRole('combobox', { name: 'Project' })).toHaveValue(sample);
  await expect(page.getByText('Sample data', { exact: true })).toBeVisible();
  await expect(page.getByRole('img', { name: `Evidence records per month for ${sample}` })).toBeVisible();
  await expect(page.getByText(/✓ intact \(\d+ records\)/)).toBeVisible();
  // The scheduler anchors the new head a second after the import: the line shows either state, with figures.
  await expect(
    page.getByText(
      /^(Never anchored: \d+ record\(s\) waiting|Seq \d+ \(Ed25519 checkpoint, [\d-]+ [\d:]+ UTC\); every record is anchored)/,
    ),
  ).toBeVisible();
  const alerts = page.getByRole('heading', { name: /^Alerts/ }).locator('..');
  await expect(alerts).toContainText('drift_events');
  await expect(alerts).toContainText('SOC 2 Type II');
  // The chart's numbers are also a real table.
  await page.getByText('Show as table').click();
  await expect(page.getByRole('table', { name: 'Evidence records per month and schema key' }).getByRole('row')).toHaveCount(7);
  const cell = page.getByRole('link', { name: /^EU AI Act Article 15: Partial/ });
  await expect(cell).toBeVisible();
  await screenshotTo('overview-sample');

  // Keyboard click-through: the heatmap cell opens the Frameworks screen on the clause with its reasons.
  await cell.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Framework clause maps' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'EU AI Act for' })).toContainText(sample);
  const reasons = page.getByRole('list', { name: /^Why Article 15\(\d\) is partial/ });
  await expect(reasons).toBeVisible();
  await expect(reasons).toContainText('fails');
  await screenshotTo('overview-clickthrough-frameworks');

  // A bundle of the sample: OSCAL export from the Bundles screen validates against NIST's schema.
  const end = new Date().toISOString().slice(0, 10);
  const start = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
  await workbench.call('cec.buildBundle', { project_id: sample, date_range: [start, end], frameworks: ['eu_ai_act', 'soc2'] });
  await page.getByRole('link', { name: 'Bundles', exact: true }).click();
  const download = page.waitForEvent('download');
  await page
    .getByRole('button', { name: /^Export cec-.* as OSCAL$/ })
    .first()
    .click();
  const file = await (await download).path();
  const document = JSON.parse(readFileSync(file, 'utf8')) as { 'assessment-results': { results: { findings: unknown[] }[] } };
  expect(oscalErrors(document)).toEqual([]);
  expect(document['assessment-results'].results[0]?.findings.length).toBeGreaterThan(30);
  await screenshotTo('bundles-oscal');

  // Back on the Overview the bundle is listed and verifies.
  await page.getByRole('link', { name: 'Overview', exact: true }).click();
  await page.getByRole('button', { name: /^Verify cec-/ }).click();
  await expect(page.getByText('✓ valid')).toBeVisible();

  // The sample is removable and the first-run offer returns.
  await page.getByRole('button', { name: 'Remove sample data' }).click();
  await expect(page.getByRole('heading', { name: 'No evidence yet' })).toBeVisible();
});
