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

test('scans obfuscated text, lists the country phone entities and takes phone regions', async ({ page, workbench, screenshotTo }) => {
  await workbench.login(page);
  await workbench.call('settings.update', { values: { piiAction: 'redact' } });
  await page.getByRole('link', { name: 'Scan', exact: true }).click();

  // Zero-width space inside an address, full-width digits in a card number: found, and the screen says it normalised.
  await page.getByLabel('Text to scan').fill('Write to john\u200b@example.com, card ４１１１ １１１１ １１１１ １１１１.');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('invisible characters removed');
  await expect(page.getByLabel('Redacted output')).toHaveText('Write to <EMAIL_ADDRESS>, card <CREDIT_CARD>.');
  await screenshotTo('scan-normalised');

  // The entity filter lists the country phone entities; a Turkish number is found as TR_PHONE_NUMBER.
  const filter = page.getByLabel('Entity filter (none selected = defaults)');
  await expect(filter.locator('option', { hasText: 'TR_PHONE_NUMBER' })).toHaveCount(1);
  await expect(filter.locator('option', { hasText: 'PH_MOBILE_NUMBER' })).toHaveCount(1);
  await page.getByLabel('Text to scan').fill('Ara beni 0532 123 45 67 lütfen.');
  await filter.selectOption(['TR_PHONE_NUMBER']);
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByLabel('Redacted output')).toHaveText('Ara beni <TR_PHONE_NUMBER> lütfen.');

  // Phone regions per request replace the setting's: a New York number is not a GB number.
  await filter.selectOption(['PHONE_NUMBER']);
  await page.getByLabel('Text to scan').fill('Call (212) 555-0199 today.');
  const regions = page.getByLabel('Phone regions (e.g. GB, TR; empty = the setting)');
  await regions.fill('gb');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('No personal data found');
  await regions.fill('gb, us');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByLabel('Redacted output')).toHaveText('Call <PHONE_NUMBER> today.');
  await screenshotTo('scan-phone-regions');
  await regions.fill('XX');
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('phone_regions');
});
