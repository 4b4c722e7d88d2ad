import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../../test-support/backends.ts';
import { type ScimHarness, scimHarness } from './harness.ts';

/**
 * The request sequence Okta's SCIM 2.0 provisioning sends (Okta developer docs, "SCIM 2.0 protocol" and the
 * Runscope/Okta SCIM spec tests): look-up by userName eq with startIndex/count, create, read, PUT update,
 * deactivate and reactivate by PATCH replace without path, and group push with PATCH member add/remove.
 */
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
let h: ScimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(testBackends)('Okta provisioning on $name', (backend) => {
  const t = appPerTest(backend);

  describe('Okta provisioning sequence', () => {
    it('provisions, updates, deactivates, reactivates and pushes groups', async () => {
      h = await scimHarness({}, t().app);
      const lookup = await h.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
      );
      expect(lookup.status).toBe(200);
      expect(lookup.body).toMatchObject({ totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

      const oktaUser = {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName: 'test.user@okta.local',
        name: { givenName: 'Test', familyName: 'User' },
        emails: [{ primary: true, value: 'test.user@okta.local', type: 'work' }],
        displayName: 'Test User',
        locale: 'en-US',
        externalId: '00ujl29u0le5T6Aj10h7',
        groups: [],
        password: '1mz050nq',
        active: true,
      };
      const created = await h.call('POST', '/scim/v2/Users', oktaUser);
      expect(created.status).toBe(201);
      const id = created.body['id'] as string;
      expect(created.body).toMatchObject({ userName: 'test.user@okta.local', active: true, externalId: '00ujl29u0le5T6Aj10h7' });
      expect(created.body['password']).toBeUndefined();

      const again = await h.call('POST', '/scim/v2/Users', { ...oktaUser, userName: 'TEST.USER@okta.local' });
      expect(again.status).toBe(409);
      expect(again.body['scimType']).toBe('uniqueness');

      const found = await h.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('userName eq "test.user@okta.local"')}&startIndex=1&count=100`,
      );
      expect(found.body['totalResults']).toBe(1);
      expect((await h.call('GET', `/scim/v2/Users/${id}`)).body['id']).toBe(id);

      const put = await h.call('PUT', `/scim/v2/Users/${id}`, { ...oktaUser, id, name: { givenName: 'Another', familyName: 'User' } });
      expect(put.status).toBe(200);
      expect(put.body['name']).toEqual({ givenName: 'Another', familyName: 'User' });

      const deactivated = await h.call('PATCH', `/scim/v2/Users/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', value: { active: false } }],
      });
      expect(deactivated.status).toBe(200);
      expect(deactivated.body['active']).toBe(false);
      const reactivated = await h.call('PATCH', `/scim/v2/Users/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', value: { active: true } }],
      });
      expect(reactivated.body['active']).toBe(true);

      const group = await h.call('POST', '/scim/v2/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Test SCIMv2',
        members: [],
      });
      expect(group.status).toBe(201);
      const groupId = group.body['id'] as string;
      const byName = await h.call(
        'GET',
        `/scim/v2/Groups?filter=${encodeURIComponent('displayName eq "Test SCIMv2"')}&startIndex=1&count=100`,
      );
      expect(byName.body['totalResults']).toBe(1);

      const renamed = await h.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv2 renamed' } }],
      });
      expect(renamed.status).toBe(200);
      expect(renamed.body['displayName']).toBe('Test SCIMv2 renamed');

      const added = await h.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        schemas: [patchOp],
        Operations: [{ op: 'add', path: 'members', value: [{ value: id, display: 'test.user@okta.local' }] }],
      });
      expect(added.body['members']).toMatchObject([{ value: id, display: 'test.user@okta.local' }]);
      expect((await h.call('GET', `/scim/v2/Users/${id}`)).body['groups']).toMatchObject([
        { value: groupId, display: 'Test SCIMv2 renamed' },
      ]);

      const removed = await h.call('PATCH', `/scim/v2/Groups/${groupId}`, {
        schemas: [patchOp],
        Operations: [{ op: 'remove', path: `members[value eq "${id}"]` }],
      });
      expect(removed.status).toBe(200);
      expect(removed.body['members']).toBeUndefined();

      const imported = await h.call('GET', '/scim/v2/Groups?startIndex=1&count=100');
      expect(imported.body['totalResults']).toBe(1);
      expect((await h.call('DELETE', `/scim/v2/Groups/${groupId}`)).status).toBe(204);
      expect((await h.call('GET', `/scim/v2/Users/${id}`)).status).toBe(200);
    });
  });
});
