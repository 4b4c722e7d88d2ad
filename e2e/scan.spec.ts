import { expect, test } from './fixtures.ts';

const sample = 'Please call Maria Gonzalez at +1 415-555-0132 or write to maria.gonzalez@example.com about the invoice.';

test('scans text: block-mode rejection, then a redaction with highlighted findings', async ({ page, workbench, screenshotTo }) => {
  await workbench.login(page);

  // Block mode: the pipeline refuses text with PII (422 PII_DETECTED) and the screen says so.
  await workbench.call('settings.update', { values: { piiAction: 'block' } });
  await page.getByRole('link', { name: 'Scan', exact: true }).click();
  await page.getByLabel('Open a text file').setInputFiles({ name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from(sample) });
  await expect(page.getByLabel('Text to scan')).toHaveValue(sample);
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('PII_DETECTED');
  await expect(page.getByLabel('Redacted output')).toHaveCount(0);
  await screenshotTo('scan-blocked');

  // Redact mode: highlighted findings with type, score and explanation on hover, and the redacted view.
  await workbench.call('settings.update', { values: { piiAction: 'redact' } });
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('entities found');
  await expect(page.getByRole('alert')).toHaveCount(0);
  const redacted = page.getByLabel('Redacted output');
  await expect(redacted).toHaveText('Please call <PERSON> at <PHONE_NUMBER> or write to <EMAIL_ADDRESS> about the invoice.');
  const email = page.getByLabel('Highlighted findings').locator('mark[data-type="EMAIL_ADDRESS"]');
  await expect(email).toHaveAttribute('title', /EMAIL_ADDRESS · score 1\.00 · Identified as EMAIL_ADDRESS/);
  await expect(page.getByRole('table', { name: 'Entities' })).toContainText('PERSON');
  await email.hover();
  await screenshotTo('scan-redacted');

  // The allow list and the entity filter narrow the findings.
  await page.getByLabel('Allow list (one value per line)').fill('Maria Gonzalez');
  await page.getByLabel('Entity filter (none selected = defaults)').selectOption(['EMAIL_ADDRESS', 'PERSON']);
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(redacted).toHaveText('Please call Maria Gonzalez at +1 415-555-0132 or write to <EMAIL_ADDRESS> about the invoice.');
  await screenshotTo('scan-filtered');

  // The status screen shows the engine block with the scan just made.
  await page.getByRole('link', { name: 'Status', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Scan engine' })).toContainText('PIPL_NATIONAL_ID');
  await expect(page.getByRole('table', { name: 'Scan engine' })).not.toContainText('never');
  await screenshotTo('scan-status');
});
