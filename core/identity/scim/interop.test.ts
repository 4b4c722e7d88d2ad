import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { type ScimHarness, scimHarness } from './test/harness.ts';

/**
 * Request shapes found running Microsoft's and Okta's SCIM test collections against this server, each through
 * the real HTTP layer (auth, parsers, routing): slashes, decorated multi-valued items, value paths in
 * `attributes`.
 */
const patchOp = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const userSchema = 'urn:ietf:params:scim:schemas:core:2.0:User';
const q = (filter: string): string => encodeURIComponent(filter);
let h: ScimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const createUser = async (harness: ScimHarness, userName: string, extra: Record<string, unknown> = {}) => {
  const created = await harness.call('POST', '/scim/v2/Users', { schemas: [userSchema], userName, ...extra });
  expect(created.status).toBe(201);
  return created;
};

describe.each(testBackends)('SCIM interoperability on $name', (backend) => {
  const t = appPerTest(backend);

  describe('SCIM paths with trailing and repeated slashes route like the canonical path', () => {
    it('lists, reads, creates and patches through /Users/, //Users and /Users//id/', async () => {
      h = await scimHarness({}, t().app);
      const alice = (await createUser(h, 'alice@example.org')).body['id'] as string;
      await createUser(h, 'bob@example.org');

      const trailing = await h.call('GET', `/scim/v2/Users/?filter=${q('userName eq "alice@example.org"')}`);
      expect(trailing.status).toBe(200);
      expect(trailing.body).toMatchObject({ totalResults: 1, Resources: [{ id: alice }] });
      const doubled = await h.call('GET', '/scim/v2//Users');
      expect(doubled.body).toMatchObject({ totalResults: 2 });
      const one = await h.call('GET', `/scim/v2//Users//${alice}/`);
      expect(one).toMatchObject({ status: 200, body: { id: alice, userName: 'alice@example.org' } });

      const created = await h.call('POST', '/scim/v2/Users/', { schemas: [userSchema], userName: 'carol@example.org' });
      expect(created.status).toBe(201);
      const patched = await h.call('PATCH', `/scim/v2/Users/${alice}/`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Alice' }],
      });
      expect(patched).toMatchObject({ status: 200, body: { displayName: 'Alice' } });
      expect((await h.call('GET', '/scim/v2/Users')).body['totalResults']).toBe(3);
    });

    it('still answers 404 for a path with more than a resource and an id, and 405 for a write to a collection', async () => {
      h = await scimHarness({}, t().app);
      const alice = (await createUser(h, 'alice@example.org')).body['id'] as string;
      expect((await h.call('GET', `/scim/v2/Users/${alice}/extra`)).status).toBe(404);
      expect((await h.call('GET', '/scim/v2//')).status).toBe(404);
      const put = await h.call('PUT', '/scim/v2/Users/', { schemas: [userSchema], userName: 'x@example.org' });
      expect(put.status).toBe(405);
      expect((await h.call('GET', '/scim/v2/Users')).body['totalResults']).toBe(1);
    });
  });

  describe('unknown sub-attributes inside multi-valued items are ignored', () => {
    it('adds a member sent with a displayName (Entra), on create and by PATCH', async () => {
      h = await scimHarness({}, t().app);
      const alice = (await createUser(h, 'alice@example.org')).body['id'] as string;
      const bob = (await createUser(h, 'bob@example.org')).body['id'] as string;
      const group = await h.call('POST', '/scim/v2/Groups', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
        displayName: 'Engineering',
        members: [{ value: alice, displayName: 'Alice' }],
      });
      expect(group.status).toBe(201);
      const gid = group.body['id'] as string;
      const added = await h.call('PATCH', `/scim/v2/Groups/${gid}`, {
        schemas: [patchOp],
        Operations: [{ op: 'Add', path: 'members', value: [{ value: bob, displayName: 'Bob' }] }],
      });
      expect(added.status).toBe(200);
      const members = (await h.call('GET', `/scim/v2/Groups/${gid}`)).body['members'] as Record<string, unknown>[];
      expect(members.map((member) => member['value']).sort()).toEqual([alice, bob].sort());
      expect(members.every((member) => !('displayName' in member))).toBe(true);
      const bobsGroups = (await h.call('GET', `/scim/v2/Users/${bob}`)).body['groups'] as Record<string, unknown>[];
      expect(bobsGroups).toMatchObject([{ value: gid }]);
    });

    it('accepts emails with extra sub-attributes, stores the known ones, and keeps single-valued complex strict', async () => {
      h = await scimHarness({}, t().app);
      const created = await createUser(h, 'dana@example.org', {
        emails: [{ value: 'dana@example.org', type: 'work', primary: true, verified: true, display: 'Dana' }],
      });
      expect(created.body['emails']).toEqual([{ value: 'dana@example.org', type: 'work', primary: true, display: 'Dana' }]);
      const replaced = await h.call('PATCH', `/scim/v2/Users/${created.body['id'] as string}`, {
        schemas: [patchOp],
        Operations: [{ op: 'replace', path: 'emails[type eq "work"]', value: { value: 'd@example.org', type: 'work', label: 'x' } }],
      });
      expect(replaced.status).toBe(200);
      expect(replaced.body['emails']).toEqual([{ value: 'd@example.org', type: 'work' }]);
      const strict = await h.call('POST', '/scim/v2/Users', {
        schemas: [userSchema],
        userName: 'eve@example.org',
        name: { givenName: 'Eve', nick: 'e' },
      });
      expect(strict).toMatchObject({ status: 400, body: { scimType: 'invalidValue', detail: expect.stringMatching(/name\.nick/) } });
    });
  });

  describe('value paths in attributes are refused with 400 invalidFilter, never answered with only id', () => {
    it('refuses them on list, read, .search and before any write', async () => {
      h = await scimHarness({}, t().app);
      const alice = (await createUser(h, 'alice@example.org', { emails: [{ value: 'alice@example.org', type: 'work' }] })).body[
        'id'
      ] as string;
      const valuePath = q('emails[type eq "work"]');
      for (const url of [
        `/scim/v2/Users?attributes=${valuePath}`,
        `/scim/v2/Users/${alice}?attributes=${valuePath}`,
        `/scim/v2/Users?excludedAttributes=${valuePath}`,
      ]) {
        const refused = await h.call('GET', url);
        expect(refused).toMatchObject({
          status: 400,
          body: { scimType: 'invalidFilter', detail: expect.stringMatching(/attribute names.*not value filters/) },
        });
      }
      const search = await h.call('POST', '/scim/v2/Users/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        attributes: ['emails[type eq "work"]'],
      });
      expect(search).toMatchObject({ status: 400, body: { scimType: 'invalidFilter' } });
      const write = await h.call('POST', `/scim/v2/Users?attributes=${valuePath}`, { schemas: [userSchema], userName: 'bob@example.org' });
      expect(write).toMatchObject({ status: 400, body: { scimType: 'invalidFilter' } });
      expect((await h.call('GET', '/scim/v2/Users')).body['totalResults']).toBe(1);
      // The supported form still works: attribute notation, with filter= to choose resources.
      const projected = await h.call('GET', `/scim/v2/Users?attributes=emails.value&filter=${q('emails[type eq "work"]')}`);
      expect(projected.body).toMatchObject({ totalResults: 1, Resources: [{ id: alice, emails: [{ value: 'alice@example.org' }] }] });
    });
  });
});
