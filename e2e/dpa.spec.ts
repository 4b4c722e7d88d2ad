import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { docxToText, dpaChecklist, pdfToText } from '../core/cec/dpa/test-support.ts';
import { expect, test } from './fixtures.ts';

const downloadBytes = async (page: Page, button: string): Promise<{ name: string; bytes: Buffer }> => {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button, exact: true }).click()]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
};

test('drafts a DPA from the form with a live preview, exports PDF and DOCX with every required section', async ({
  page,
  workbench,
  screenshotTo,
}) => {
  await workbench.login(page);
  await page.getByRole('link', { name: 'DPA', exact: true }).click();

  // The form checks itself before asking the server.
  await page.getByRole('button', { name: 'Generate DPA' }).click();
  await expect(page.getByRole('alert')).toContainText('Please fix');
  await expect(page.getByText("Enter the controller's name.")).toBeVisible();
  await expect(page.getByLabel('Controller name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await screenshotTo('dpa-validation');

  await page.getByLabel('Project id').fill('credit-model');
  await page.getByLabel('Controller name', { exact: true }).fill('Acme Lending GmbH');
  await page.getByLabel('Controller address', { exact: true }).fill('Hauptstraße 1\n10115 Berlin, Germany');
  await page.getByLabel('Controller contact (optional)').fill('dpo@acme.example');
  await page.getByLabel('Processor name', { exact: true }).fill('ModelOps Ltd');
  await page.getByLabel('Processor address', { exact: true }).fill('2 Dock Road, Dublin, Ireland');
  const category = page.getByLabel('New category of data subjects');
  await category.fill('Loan applicants');
  await category.press('Enter');
  await category.fill('Employees of the Controller');
  await page.getByRole('button', { name: 'Add to categories of data subjects' }).click();
  await expect(page.getByRole('list', { name: 'Categories of data subjects' }).getByRole('listitem')).toHaveCount(2);
  await page.getByLabel('New type of personal data').fill('Credit history');
  await page.getByLabel('New type of personal data').press('Enter');
  await page.getByLabel('Purpose of the processing (optional)').fill('Credit scoring of loan applications.');
  await page.getByLabel('Sub-processor name').fill('CloudHost BV');
  await page.getByLabel('Sub-processor location').fill('Amsterdam, Netherlands');
  await page.getByLabel('Sub-processor activity').fill('Hosting');
  await page.getByRole('button', { name: 'Add sub-processor' }).click();
  await expect(page.getByRole('table', { name: 'Authorised sub-processors' })).toContainText('CloudHost BV');
  await page.getByLabel('SCC 2021/914 Module Two (controller to processor)').check();
  await page.getByLabel('Adequacy decision (Art. 45 GDPR)').check();
  await page.getByLabel('Retention period (days)').fill('90');
  await page.getByLabel('Governing law (country code or text)').fill('DE');

  // Live preview: the server renders and escapes; the page shows it in a sandboxed frame.
  const preview = page.frameLocator('iframe[title="DPA preview"]');
  await expect(preview.getByRole('heading', { name: 'Annex III: Sub-processors' })).toBeVisible();
  await expect(preview.locator('body')).toContainText('governed by the law of Germany');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await screenshotTo('dpa-preview');

  await page.getByRole('button', { name: 'Generate DPA' }).click();
  await expect(page.getByRole('status')).toContainText(/Generated dpa-/);
  await expect(page.getByRole('table', { name: 'Stored agreements' })).toContainText('Acme Lending GmbH');

  const pdf = await downloadBytes(page, 'Download PDF');
  expect(pdf.name).toMatch(/^dpa_credit-model_dpa-[0-9A-Z]{26}\.pdf$/);
  const pdfText = await pdfToText(pdf.bytes);
  for (const [element, expected] of dpaChecklist) expect(pdfText, `PDF: ${element}`).toContain(expected);
  expect(pdfText).toMatch(/Page 1 of \d+/);
  expect(pdfText).toContain('Types of personal data: Credit history');
  expect(pdfText).toContain('Purpose. Credit scoring of loan applications.');
  expect(pdfText).toContain('CloudHost BV Amsterdam, Netherlands Hosting');

  const docx = await downloadBytes(page, 'Download DOCX');
  expect(docx.name).toMatch(/\.docx$/);
  const docxText = await docxToText(docx.bytes);
  for (const [element, expected] of dpaChecklist) expect(docxText, `DOCX: ${element}`).toContain(expected);
  await screenshotTo('dpa-generated');
});
