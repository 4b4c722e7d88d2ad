import { expect, test } from './fixtures.ts';

test('signs in with the one-time link, manages API keys and chats with the local provider', async ({ page, workbench, screenshotTo }) => {
  await workbench.login(page);

  // API keys: create, see it listed without its secret, revoke.
  await page.getByRole('link', { name: 'API Keys' }).click();
  await page.getByLabel('Name').fill('e2e pipeline');
  await page.getByLabel('Tier').selectOption('api');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.locator('#new-key-secret').textContent()) ?? '';
  expect(secret).toMatch(/^svc_[0-9A-Za-z]{36}$/);
  await screenshotTo('api-keys-created');
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /e2e pipeline/ });
  await expect(row).toContainText('active');
  await expect(page.locator('body')).not.toContainText(secret);
  await expect(row).toContainText(secret.slice(0, 10));
  await row.getByRole('button', { name: 'Revoke e2e pipeline' }).click();
  await expect(row).toContainText('revoked');
  await screenshotTo('api-keys');

  // Chat: through the core, against the local OpenAI-compatible provider.
  await page.getByRole('link', { name: 'Chat' }).click();
  await page.getByLabel('Message').fill('Hello from the workbench');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('list', { name: 'Conversation' })).toContainText('echo: Hello from the workbench');
  await expect(page.getByRole('status')).toContainText('tokens 7 + 5 = 12');
  await screenshotTo('chat');
  expect(workbench.provider.requests.at(-1)?.body).toMatchObject({ model: 'test-model' });

  // Every screen renders under its navigation link.
  for (const name of [
    'Overview',
    'Scan',
    'DPA',
    'Evidence',
    'Bundles',
    'Verify',
    'Frameworks',
    'Users & Groups',
    'SSO Sessions',
    'Identity Settings',
    'Status',
    'Settings',
  ]) {
    await page.getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await screenshotTo(`screen-${name.toLowerCase().replace(/[^a-z]+/g, '-')}`);
  }
});

test('the API refuses requests without a key and with a foreign Origin', async ({ workbench }) => {
  expect((await fetch(`${workbench.url}/v1/keys`)).status).toBe(401);
  const foreign = await fetch(`${workbench.url}/api/ops/keys.list`, {
    method: 'POST',
    headers: { origin: 'https://evil.example', authorization: `Bearer ${workbench.adminKey}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(foreign.status).toBe(403);
  expect((await fetch(`${workbench.url}/v1/svc/status`)).status).toBe(200);
});
