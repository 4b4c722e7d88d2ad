import { expect, test } from './fixtures.ts';

const project = 'anchors-e2e';
// The scheduler would anchor each head a second after its append and race the button: this spec drives
// anchoring by hand (the scheduler has its own tests in core/audit/anchors/scheduler.test.ts).
test.use({ serverEnv: { SVC_ANCHOR_INTERVAL_MINUTES: '0' } });
const record = (day: number) => ({
  project_id: project,
  schema_key: 'gate_evaluations',
  timestamp: `2026-04-${String(day).padStart(2, '0')}T09:00:00Z`,
  payload: {
    gate: 'release',
    model_id: 'credit-risk',
    model_version: '3.2.0',
    decision: 'pass',
    criteria: [{ name: 'auc', passed: true }],
  },
});

test('anchor a chain head from the Evidence screen, then see the anchors and their lag when verifying a bundle', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  await workbench.call('audit.append', { records: [1, 2, 3, 4, 5, 6].map(record) });
  await workbench.login(page);
  await page.getByRole('link', { name: 'Evidence', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Evidence records' })).toBeVisible();
  // The panel shows for a known project only: wait until the project list has arrived before choosing one.
  await expect(page.locator(`#evidence-projects option[value="${project}"]`)).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Project' }).fill(project);
  const panel = page.getByRole('region', { name: `Chain anchors of ${project}` });
  await expect(panel).toBeVisible();

  await panel.getByRole('button', { name: 'Anchor now' }).click();
  await expect(panel.getByRole('status')).toHaveText(`Anchored ${project} at seq 6`);
  await panel.getByRole('button', { name: 'Anchor now' }).click();
  await expect(panel.getByRole('status')).toHaveText(`Head of ${project} has not moved since the anchor at seq 6`);

  await workbench.call('audit.append', { records: [7, 8, 9].map(record) });
  await panel.getByRole('button', { name: 'Anchor now' }).click();
  await expect(panel.getByRole('status')).toHaveText(`Anchored ${project} at seq 9`);
  const rows = panel.getByRole('table', { name: 'Chain anchors' }).getByRole('row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1)).toContainText('Ed25519 checkpoint');
  await screenshotTo('evidence-anchors');

  const built = await workbench.call<{ zip_path: string }>('cec.buildBundle', {
    project_id: project,
    date_range: ['2026-04-02', '2026-04-08'],
  });
  await page.getByRole('link', { name: 'Verify', exact: true }).click();
  await page.getByLabel('Bundle ZIP file').setInputFiles(built.zip_path);
  await expect(page.getByRole('status').filter({ hasText: 'Bundle is valid' })).toBeVisible({ timeout: 30_000 });
  const checks = page.getByRole('list', { name: 'Checks' });
  await expect(checks.getByRole('listitem').filter({ hasText: 'Chain anchors match the re-derived heads' })).toContainText('pass');
  const anchors = page.getByRole('table', { name: 'Anchors carried by the bundle' }).getByRole('row');
  // The segment is seq 2..8: anchor 6 lies inside it, anchor 9 after it (reached by a bridge).
  await expect(anchors).toHaveCount(3);
  await expect(anchors.nth(1)).toContainText('6');
  await expect(anchors.nth(2)).toContainText('9');
  // In the app the install's own key is trusted: its checkpoints verify and give the lag.
  await expect(anchors.nth(1)).toContainText('verified');
  await expect(page.getByRole('note')).toContainText('Anchoring lag over 7 records');
  await expect(page.getByRole('note')).toContainText('Every record has a verified anchor after it.');
  const trust = page.getByRole('definition');
  await expect(trust.first()).toContainText('valid, checked with trusted key');
  await expect(trust.last()).toContainText('stub');
  await screenshotTo('verify-anchors');
});
