import { expect, test } from './fixtures.ts';

const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';

test('administers SCIM users, groups and SSO sessions', async ({ page, workbench, screenshotTo }) => {
  // Provision as an IdP would: over /scim/v2 with a bearer key.
  const scim = async (method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${workbench.url}/scim/v2${path}`, {
      method,
      headers: { authorization: `Bearer ${workbench.adminKey}`, 'content-type': 'application/scim+json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, `${method} ${path}`).toBeLessThan(300);
    return (await response.json()) as Record<string, unknown>;
  };
  const alice = await scim('POST', '/Users', {
    schemas: [userSchema],
    userName: 'alice@example.com',
    displayName: 'Alice Liddell',
    emails: [{ value: 'alice@example.com', type: 'work', primary: true }],
  });
  await scim('POST', '/Users', { schemas: [userSchema], userName: 'bob@example.com', displayName: 'Bob Builder' });
  await scim('POST', '/Groups', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName: 'Auditors',
    members: [{ value: alice['id'] }],
  });
  await workbench.call('identity.ssoDelegateSession', {
    idp_session_id: 'okta-sid-alice',
    subject: 'alice@example.com',
    email: 'alice@example.com',
    project_id: 'default',
  });
  await workbench.call('identity.ssoDelegateSession', {
    idp_session_id: 'okta-sid-bob',
    subject: 'bob@example.com',
    email: 'bob@example.com',
    project_id: 'default',
  });

  await workbench.login(page);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.getByRole('link', { name: 'Users & Groups' }).click();
  const users = page.getByRole('table', { name: 'Users' });
  await expect(users).toContainText('alice@example.com');
  await expect(users).toContainText('Auditors');

  // Create a user by hand, then search with a SCIM filter.
  await page.getByLabel('User name').fill('carol@example.com');
  await page.getByLabel('Display name').fill('Carol Danvers');
  await page.getByLabel('Email').fill('carol@example.com');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByRole('status').first()).toHaveText('Created carol@example.com');
  await page.getByLabel('SCIM filter').fill('userName sw "carol" or displayName co "liddell"');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(users.getByRole('row')).toHaveCount(3);
  await expect(users).not.toContainText('bob@example.com');

  // A malformed filter is explained, not crashed on.
  await page.getByLabel('SCIM filter').fill('userName eq');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('alert')).toContainText('Expected a value');
  await page.getByRole('button', { name: 'Clear' }).click();
  await expect(users.getByRole('row')).toHaveCount(4);

  // Deactivate Alice (her SSO session dies with it) and put Carol in the group.
  await page.getByRole('button', { name: 'Deactivate alice@example.com' }).click();
  await expect(page.getByRole('status').first()).toHaveText('Deactivated alice@example.com');
  await expect(users.getByRole('row', { name: /alice@example.com/ })).toContainText('inactive');
  await page.getByLabel('User to add to Auditors').selectOption({ label: 'carol@example.com' });
  await page.getByRole('button', { name: 'Add member to Auditors' }).click();
  await expect(page.getByRole('list', { name: 'Members of Auditors' })).toContainText('carol@example.com');
  await screenshotTo('scim-users');

  await page.getByRole('button', { name: 'Remove carol@example.com from Auditors' }).click();
  await expect(page.getByRole('list', { name: 'Members of Auditors' })).not.toContainText('carol@example.com');
  await page.getByRole('button', { name: 'Delete carol@example.com' }).click();
  await expect(users).not.toContainText('carol@example.com');

  // SSO sessions: Alice's was revoked by her deactivation; revoke Bob's by IdP session.
  await page.getByRole('link', { name: 'SSO Sessions' }).click();
  const sessions = page.getByRole('table', { name: 'SSO sessions' });
  await expect(sessions).toContainText('okta-sid-bob');
  await expect(sessions).not.toContainText('okta-sid-alice');
  await page.getByLabel('Show revoked and expired').check();
  await expect(sessions.getByRole('row', { name: /okta-sid-alice/ })).toContainText('revoked');
  await screenshotTo('scim-sso-sessions');
  await page.getByLabel('IdP session id', { exact: true }).fill('okta-sid-bob');
  await page.getByRole('button', { name: 'Revoke IdP session', exact: true }).click();
  await expect(page.getByRole('status').first()).toHaveText('Revoked every session of IdP session okta-sid-bob');
  await expect(sessions.getByRole('row', { name: /okta-sid-bob/ })).toContainText('revoked');
  await page.getByLabel('IdP session id', { exact: true }).fill('okta-sid-bob');
  await page.getByRole('button', { name: 'Revoke IdP session', exact: true }).click();
  await expect(page.getByRole('status').first()).toHaveText('No live session matched IdP session okta-sid-bob');
  await screenshotTo('scim-sso-revoked');
});
