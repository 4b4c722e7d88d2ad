import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../../test-support/backends.ts';
import { type ScimHarness, scimHarness } from './harness.ts';

/**
 * The request sequence Microsoft Entra ID's provisioning service sends (Microsoft Learn, "Develop and plan
 * provisioning for a SCIM endpoint", request/response examples): query by userName and externalId, create with
 * the enterprise extension, PATCH with capitalised ops, value filters and dotted keys, booleans as strings,
 * group create, query with excludedAttributes=members, member Add/Remove by value, lower-case paths.
 */
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const enterprise = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
let h: ScimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const q = (filter: string): string => encodeURIComponent(filter);

describe.each(testBackends)('Microsoft Entra ID provisioning on $name', (backend) => {
  const t = appPerTest(backend);

  describe('Microsoft Entra ID provisioning sequence', () => {
    it('creates, queries and patches users the way Entra does', async () => {
      h = await scimHarness({}, t().app);
      const none = await h.call('GET', `/scim/v2/Users?filter=${q('userName eq "Test_User_dfeef4c5-5681-4387-b016-bdf221e82081"')}`);
      expect(none.body).toMatchObject({ totalResults: 0, Resources: [] });

      const created = await h.call('POST', '/scim/v2/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', enterprise],
        externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
        userName: 'Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1',
        active: true,
        emails: [{ primary: true, type: 'work', value: 'Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com' }],
        meta: { resourceType: 'User' },
        name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
        roles: [],
        [enterprise]: { employeeNumber: '1234', department: 'Engineering' },
      });
      expect(created.status).toBe(201);
      const id = created.body['id'] as string;
      expect(created.body['schemas']).toContain(enterprise);

      const byExternal = await h.call('GET', `/scim/v2/Users?filter=${q('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`);
      expect(byExternal.body['totalResults']).toBe(1);
      const lower = await h.call('GET', `/scim/v2/users?filter=${q('userName eq "test_user_ab6490ee-1e48-479e-a20b-2d77186b5dd1"')}`);
      expect(lower.body['totalResults']).toBe(1);

      const patched = await h.call('PATCH', `/scim/v2/Users/${id}`, {
        schemas: [patchOp],
        Operations: [
          { op: 'Replace', path: 'userName', value: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com' },
          { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
          { op: 'Add', path: 'emails[type eq "work"].value', value: 'updatedEmail@microsoft.com' },
          { op: 'Add', path: `${enterprise}:manager`, value: 'scim-user-MANAGER' },
        ],
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        userName: '5b50642d-79fc-4410-9e90-4c077cdd1a59@testuser.com',
        name: { familyName: 'updatedFamilyName', givenName: 'givenName' },
        emails: [{ type: 'work', value: 'updatedEmail@microsoft.com', primary: true }],
        [enterprise]: { employeeNumber: '1234', department: 'Engineering', manager: { value: 'scim-user-MANAGER' } },
      });

      const noPath = await h.call('PATCH', `/scim/v2/users/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Replace', value: { active: 'False', 'name.givenName': 'Newname', [`${enterprise}:department`]: 'Sales' } }],
      });
      expect(noPath.body).toMatchObject({ active: false, name: { givenName: 'Newname' }, [enterprise]: { department: 'Sales' } });
      const reactivated = await h.call('PATCH', `/scim/v2/Users/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', path: 'active', value: 'True' }],
      });
      expect(reactivated.body['active']).toBe(true);

      const removeManager = await h.call('PATCH', `/scim/v2/Users/${id}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Remove', path: `${enterprise}:manager` }],
      });
      expect((removeManager.body[enterprise] as Record<string, unknown>)['manager']).toBeUndefined();

      expect((await h.call('DELETE', `/scim/v2/users/${id}`)).status).toBe(204);
      expect((await h.call('GET', `/scim/v2/Users/${id}`)).status).toBe(404);
    });

    it('creates groups, queries without members and changes membership by value', async () => {
      h = await scimHarness({}, t().app);
      const user = (await h.call('POST', '/scim/v2/Users', { userName: 'member@contoso.test' })).body['id'] as string;
      const group = await h.call('POST', '/scim/v2/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group', 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/Group'],
        externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
        displayName: 'displayName',
        meta: { resourceType: 'Group' },
        members: [],
      });
      expect(group.status).toBe(201);
      const gid = group.body['id'] as string;
      const added = await h.call('PATCH', `/scim/v2/Groups/${gid}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: user }] }],
      });
      expect(added.status).toBe(200);
      const query = await h.call('GET', `/scim/v2/Groups?excludedAttributes=members&filter=${q('displayName eq "displayName"')}`);
      expect(query.body['totalResults']).toBe(1);
      expect((query.body['Resources'] as Record<string, unknown>[])[0]?.['members']).toBeUndefined();
      const one = await h.call('GET', `/scim/v2/groups/${gid}?excludedAttributes=members`);
      expect(one.body['members']).toBeUndefined();
      expect((await h.call('GET', `/scim/v2/Groups?filter=${q(`members[value eq "${user}"]`)}`)).body['totalResults']).toBe(1);
      const removed = await h.call('PATCH', `/scim/v2/Groups/${gid}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: user }] }],
      });
      expect(removed.body['members']).toBeUndefined();
      const renamed = await h.call('PATCH', `/scim/v2/Groups/${gid}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }],
      });
      expect(renamed.body['displayName']).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
      expect((await h.call('DELETE', `/scim/v2/Groups/${gid}`)).status).toBe(204);
    });

    it('answers discovery under the spellings clients use, and plain application/json', async () => {
      h = await scimHarness({}, t().app);
      for (const path of ['ServiceProviderConfig', 'serviceProviderConfig', 'ServiceProviderConfigs', 'serviceConfiguration']) {
        const response = await h.call('GET', `/scim/v2/${path}`);
        expect(response.status, path).toBe(200);
        expect(response.body['patch'], path).toEqual({ supported: true });
      }
      expect((await h.call('GET', '/scim/v2/resourcetypes')).status).toBe(200);
      const json = await h.call('POST', '/scim/v2/Users', { userName: 'json@contoso.test' }, { 'content-type': 'application/json' });
      expect(json.status).toBe(201);
    });
  });
});
