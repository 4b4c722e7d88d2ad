import { expect, test } from './fixtures.ts';

test('an admin sees every workbench session and ends one; its token stops working at once', async ({ page, workbench, screenshotTo }) => {
  // A CI job's session: an API key exchanged for a session token.
  const key = await workbench.call<{ secret: string; id: string }>('keys.create', { tier: 'api', name: 'ci job' });
  const exchanged = await fetch(`${workbench.url}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: key.secret }),
  });
  const { access_token } = (await exchanged.json()) as { access_token: string };
  const ping = () => fetch(`${workbench.url}/v1/svc/ping`, { headers: { authorization: `Bearer ${access_token}` } });
  expect((await ping()).status).toBe(200);

  await workbench.login(page);
  await page.getByRole('link', { name: 'SSO Sessions' }).click();
  const table = page.getByRole('table', { name: 'Workbench sessions' });
  const row = table.getByRole('row').filter({ hasText: key.id });
  await expect(row).toContainText('apikey');
  await expect(table.getByRole('row').filter({ hasText: 'local-admin' })).toBeVisible();
  await screenshotTo('workbench-sessions');

  await row.getByRole('button', { name: /^End session/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Ended' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: key.id })).toHaveCount(0);
  expect((await ping()).status).toBe(401);
});
