import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

const project = 'credit-e2e';

const seed = (key: string, payload: Record<string, unknown>, day: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    project_id: project,
    schema_key: key,
    timestamp: `${day}T09:00:0${i}.000Z`,
    payload,
  }));

const score = {
  model_id: 'credit-risk',
  model_version: '3.2.0',
  metric: 'roc_auc',
  value: 0.91,
  dataset: 'loans',
  threshold: 0.85,
  passed: true,
};
const drift = { model_id: 'credit-risk', feature: 'income', statistic: 'psi', value: 0.31, threshold: 0.2, detected: true };
const risk = { model_id: 'credit-risk', score: 42, level: 'medium', factors: [{ name: 'autonomy', weight: 0.5, value: 40 }] };

const clauseRow = (page: Page, clauseId: string) =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: clauseId, exact: true }) });

test('clause map per framework with status labels, counts and drill-down to the records', async ({ page, workbench, screenshotTo }) => {
  await workbench.call('audit.append', {
    records: [
      ...seed('score_records', score, '2026-01-10', 3),
      ...seed('drift_events', drift, '2026-01-11', 2),
      ...seed('prri_records', risk, '2026-02-02', 1),
    ],
  });
  await workbench.login(page);
  await page.getByRole('link', { name: 'Frameworks', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Framework clause maps' })).toBeVisible();

  await page.getByLabel('Project').fill(project);
  await page.getByRole('combobox', { name: 'Framework', exact: true }).selectOption({ label: 'EU AI Act' });
  await page.getByRole('button', { name: 'Show clause map' }).click();
  await expect(page.getByRole('status')).toContainText(`EU AI Act for ${project} (all dates):`);

  // Status is text as well as colour; counts are the sums of the mapped keys. The drift was detected and the
  // January records are older than the EU AI Act's 90-day cadence, so the clause is partial, not satisfied.
  await expect(clauseRow(page, 'Article 15(1)')).toContainText('Partial');
  await expect(clauseRow(page, 'Article 15(1)').getByRole('cell').nth(2)).toHaveText('5');
  await expect(clauseRow(page, 'Article 9(8)')).toContainText('Partial');
  await expect(clauseRow(page, 'Article 14(1)')).toContainText('Gap');
  await expect(clauseRow(page, 'Article 9')).toContainText('Partial');

  // Drill-down: the keys behind a clause, then the records themselves.
  await page.getByRole('button', { name: 'Evidence for Article 15(1)' }).click();
  await expect(page.getByRole('table', { name: 'Evidence for Article 15(1)' })).toContainText('drift_events');
  const reasons = page.getByRole('list', { name: 'Why Article 15(1) is partial' });
  await expect(reasons).toContainText('drift_events (primary, outcome): 1 of 1 series fail');
  await expect(reasons).toContainText('stale');
  await page.getByRole('button', { name: 'Show score_records records for Article 15(1)' }).click();
  const records = page.getByRole('table', { name: 'score_records: first 3 of 3 records' });
  await expect(records.getByRole('row')).toHaveCount(4);
  await expect(page.getByRole('link', { name: 'Open the Evidence screen' })).toHaveAttribute('href', '#/evidence');
  await screenshotTo('frameworks');

  // A date range narrows the evidence: February holds only the risk record.
  await page.getByLabel('From').fill('2026-02-01');
  await page.getByLabel('To').fill('2026-02-28');
  await page.getByRole('button', { name: 'Show clause map' }).click();
  await expect(page.getByRole('status')).toContainText('(2026-02-01 to 2026-02-28)');
  await expect(clauseRow(page, 'Article 15(1)')).toContainText('Gap');
  await expect(clauseRow(page, 'Article 9(1)')).toContainText('Satisfied');

  // Another framework, filtered to its gaps.
  await page.getByRole('combobox', { name: 'Framework', exact: true }).selectOption({ label: 'SOC 2 Type II' });
  await page.getByRole('button', { name: 'Show clause map' }).click();
  await expect(page.getByRole('status')).toContainText('SOC 2 Type II');
  await page.getByRole('combobox', { name: /^Show/ }).selectOption({ label: 'Gap' });
  await expect(clauseRow(page, 'CC8.1')).toContainText('Gap');
  await expect(clauseRow(page, 'CC3.2')).toHaveCount(0);
  await screenshotTo('frameworks-soc2-gaps');
});
