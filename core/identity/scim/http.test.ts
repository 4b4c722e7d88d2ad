import { afterEach, describe, expect, it } from 'vitest';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { errorUrn, listResponseUrn, patchOpUrn, userSchemaUrn } from './schema.ts';
import { type ScimHarness, scimHarness } from './test/harness.ts';

let harness: ScimHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({ schemas: [userSchemaUrn], userName, ...extra });
const patchOf = (...Operations: unknown[]) => ({ schemas: [patchOpUrn], Operations });

describe.each(testBackends)('SCIM HTTP on $name', (backend) => {
  const t = appPerTest(backend);

  // SVC_SCIM_BASE_URL is read when an app is created: that test gets its own in-memory app.
  const open = async (env: NodeJS.ProcessEnv = {}): Promise<ScimHarness> => {
    harness = await scimHarness(env, Object.keys(env).length === 0 ? t().app : undefined);
    return harness;
  };

  describe('SCIM HTTP server /scim/v2', () => {
    it('requires a bearer credential with the scim scope (or admin)', async () => {
      const h = await open();
      const none = await h.server.inject({ method: 'GET', url: '/scim/v2/Users' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toBe('Bearer realm="SCIM"');
      expect(JSON.parse(none.body)).toMatchObject({ schemas: [errorUrn], status: '401' });
      const wrong = await h.server.inject({
        method: 'GET',
        url: '/scim/v2/Users',
        headers: { authorization: 'Bearer svc_wrongwrongwrongwrongwrongwrongwrong12' },
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toContain('invalid_token');
      const plain = await h.call('GET', '/scim/v2/Users', undefined, { authorization: `Bearer ${h.keyFor('api')}` });
      expect(plain.status).toBe(403);
      expect((await h.call('GET', '/scim/v2/Users', undefined, h.auth())).status).toBe(200);
      expect((await h.call('GET', '/scim/v2/Users')).status).toBe(200);
    });

    it('creates, reads, replaces, patches and deletes with RFC 7643 resources', async () => {
      const h = await open({ SVC_SCIM_BASE_URL: 'https://idp-facing.example.com/scim/v2/' });
      const created = await h.call(
        'POST',
        '/scim/v2/Users',
        newUser('alice', { name: { givenName: 'Alice' }, emails: [{ value: 'a@x.test', primary: true }] }),
      );
      expect(created.status).toBe(201);
      expect(created.headers['content-type']).toBe('application/scim+json; charset=utf-8');
      const id = created.body['id'] as string;
      const location = `https://idp-facing.example.com/scim/v2/Users/${id}`;
      expect(created.headers['location']).toBe(location);
      expect(created.body).toMatchObject({
        schemas: [userSchemaUrn],
        userName: 'alice',
        active: true,
        meta: { resourceType: 'User', location, version: 'W/"1"' },
      });
      expect(created.headers['etag']).toBe('W/"1"');
      const read = await h.call('GET', `/scim/v2/Users/${id}`);
      expect(read.body).toEqual(created.body);
      const put = await h.call('PUT', `/scim/v2/Users/${id}`, newUser('alice', { displayName: 'Alice L', active: true }));
      expect(put.body).toMatchObject({ displayName: 'Alice L', meta: { version: 'W/"2"' } });
      expect(put.body['emails']).toBeUndefined();
      const patched = await h.call('PATCH', `/scim/v2/Users/${id}`, patchOf({ op: 'replace', path: 'active', value: false }));
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ active: false, meta: { version: 'W/"3"' } });
      const stale = await h.call('PATCH', `/scim/v2/Users/${id}`, patchOf({ op: 'replace', path: 'title', value: 'x' }), {
        'if-match': 'W/"1"',
      });
      expect(stale.status).toBe(412);
      expect((await h.call('DELETE', `/scim/v2/Users/${id}`)).status).toBe(204);
      expect((await h.call('GET', `/scim/v2/Users/${id}`)).status).toBe(404);
    });

    it('builds meta.location from the request origin when SVC_SCIM_BASE_URL is unset', async () => {
      const h = await open();
      const created = await h.call('POST', '/scim/v2/Users', newUser('bob'));
      expect((created.body['meta'] as { location: string }).location).toBe(`http://localhost:80/scim/v2/Users/${created.body['id']}`);
    });

    it('lists with filter, paging (count clamped to 100), attributes and sorting', async () => {
      const h = await open();
      for (let index = 0; index < 105; index += 1) {
        await h.call('POST', '/scim/v2/Users', newUser(`u${String(index).padStart(3, '0')}`, { title: index % 2 === 0 ? 'even' : 'odd' }));
      }
      const page = await h.call('GET', '/scim/v2/Users?startIndex=101&count=1000');
      expect(page.body).toMatchObject({ schemas: [listResponseUrn], totalResults: 105, startIndex: 101, itemsPerPage: 5 });
      expect(((await h.call('GET', '/scim/v2/Users?count=1000')).body['Resources'] as unknown[]).length).toBe(100);
      const filtered = await h.call(
        'GET',
        `/scim/v2/Users?filter=${encodeURIComponent('title eq "odd" and userName sw "u00"')}&attributes=userName`,
      );
      expect(filtered.body['totalResults']).toBe(5);
      expect((filtered.body['Resources'] as Record<string, unknown>[])[0]).toEqual({
        schemas: [userSchemaUrn],
        id: expect.any(String),
        userName: 'u001',
      });
      const sorted = await h.call('GET', '/scim/v2/Users?sortBy=userName&sortOrder=descending&count=2&excludedAttributes=meta,title');
      const first = (sorted.body['Resources'] as Record<string, unknown>[])[0];
      expect(first?.['userName']).toBe('u104');
      expect(first?.['meta']).toBeUndefined();
      const search = await h.call('POST', '/scim/v2/Users/.search', {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'],
        filter: 'userName eq "U050"',
        count: 5,
      });
      expect(search.body['totalResults']).toBe(1);
    });

    it('answers concurrent creates of one userName with exactly one 201', async () => {
      const h = await open();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          h.call('POST', '/scim/v2/Users', newUser(index % 2 === 0 ? 'Race@x.test' : 'race@X.TEST')),
        ),
      );
      expect(results.filter((result) => result.status === 201)).toHaveLength(1);
      expect(results.filter((result) => result.status === 409).every((result) => result.body['scimType'] === 'uniqueness')).toBe(true);
      const id = results.find((result) => result.status === 201)?.body['id'] as string;
      const patches = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          h.call('PATCH', `/scim/v2/Users/${id}`, patchOf({ op: 'add', path: 'emails', value: [{ value: `e${index}@x.test` }] })),
        ),
      );
      expect(patches.every((result) => result.status === 200)).toBe(true);
      const after = await h.call('GET', `/scim/v2/Users/${id}`);
      expect((after.body['emails'] as unknown[]).length).toBe(20);
      expect((after.body['meta'] as { version: string }).version).toBe('W/"21"');
    });

    it('returns every scimType with the right status, never a 500, and writes nothing on failure', async () => {
      const h = await open();
      const user = (await h.call('POST', '/scim/v2/Users', newUser('carol'))).body;
      const url = `/scim/v2/Users/${user['id']}`;
      const cases: [string, Promise<{ status: number; body: Record<string, unknown> }>, number, string | undefined][] = [
        ['malformed filter', h.call('GET', `/scim/v2/Users?filter=${encodeURIComponent('userName eq')}`), 400, 'invalidFilter'],
        ['unknown filter attribute', h.call('GET', `/scim/v2/Users?filter=${encodeURIComponent('shoeSize gt 3')}`), 400, 'invalidFilter'],
        [
          'too complex filter',
          h.call('GET', `/scim/v2/Users?filter=${encodeURIComponent(Array.from({ length: 70 }, () => 'title pr').join(' or '))}`),
          400,
          'tooMany',
        ],
        ['duplicate userName', h.call('POST', '/scim/v2/Users', newUser('CAROL')), 409, 'uniqueness'],
        ['read-only attribute', h.call('PATCH', url, patchOf({ op: 'replace', path: 'id', value: 'x' })), 400, 'mutability'],
        ['wrong type', h.call('POST', '/scim/v2/Users', newUser('dan', { active: 'perhaps' })), 400, 'invalidValue'],
        ['unknown attribute in body', h.call('POST', '/scim/v2/Users', newUser('dan', { shoeSize: 44 })), 400, 'invalidValue'],
        ['missing userName', h.call('POST', '/scim/v2/Users', { schemas: [userSchemaUrn] }), 400, 'invalidValue'],
        ['bad count', h.call('GET', '/scim/v2/Users?count=lots'), 400, 'invalidValue'],
        ['no target', h.call('PATCH', url, patchOf({ op: 'remove' })), 400, 'noTarget'],
        ['invalid path', h.call('PATCH', url, patchOf({ op: 'replace', path: 'emails[type eq', value: 'x' })), 400, 'invalidPath'],
        ['malformed JSON', h.call('POST', '/scim/v2/Users', '{"userName": '), 400, 'invalidSyntax'],
        ['unknown op', h.call('PATCH', url, patchOf({ op: 'merge', path: 'title', value: 'x' })), 400, 'invalidSyntax'],
        ['non-object body', h.call('POST', '/scim/v2/Users', [1, 2]), 400, 'invalidSyntax'],
        ['unknown id', h.call('GET', '/scim/v2/Users/scim-user-nope'), 404, undefined],
        ['unknown endpoint', h.call('GET', '/scim/v2/Widgets'), 404, undefined],
      ];
      for (const [name, pending, status, scimType] of cases) {
        const response = await pending;
        expect(response.status, name).toBe(status);
        expect(response.body, name).toMatchObject({ schemas: [errorUrn], status: String(status) });
        expect(response.body['scimType'], name).toBe(scimType);
      }
      const partial = await h.call(
        'PATCH',
        url,
        patchOf({ op: 'replace', path: 'title', value: 'set' }, { op: 'replace', path: 'bogus', value: 1 }),
      );
      expect(partial.body['scimType']).toBe('invalidPath');
      const after = await h.call('GET', url);
      expect(after.body['title']).toBeUndefined();
      expect((after.body['meta'] as { version: string }).version).toBe('W/"1"');
    });

    it('answers hostile input with 4xx SCIM errors, never a 500', async () => {
      const h = await open();
      const user = (await h.call('POST', '/scim/v2/Users', newUser('erin'))).body;
      const group = (await h.call('POST', '/scim/v2/Groups', { displayName: 'G' })).body;
      const filters = [
        '((((',
        ')',
        '[',
        'emails[',
        'emails[]',
        'not',
        'not ()',
        'userName eq "\\x"',
        'userName eq "a" and or',
        '"x" eq userName',
        'userName eq 1e999',
        'meta.version gt "x"',
        'groups.value eq "x" and groups[display eq 1]',
        `userName eq "${'x'.repeat(5000)}"`,
        'urn: eq "x"',
        'a..b eq "x"',
        '$ eq "x"',
        'userName sw "\u0000"',
      ];
      for (const filter of filters) {
        const response = await h.call('GET', `/scim/v2/Users?filter=${encodeURIComponent(filter)}`);
        expect(response.status, filter).toBeLessThan(500);
        expect(response.body['schemas'], filter).toBeDefined();
      }
      const bodies: [string, string, unknown][] = [
        ['PATCH', `/scim/v2/Users/${user['id']}`, { Operations: [{ op: 'add', path: 'emails', value: [{ value: { nested: true } }] }] }],
        ['PATCH', `/scim/v2/Users/${user['id']}`, { Operations: [{ op: 'add', path: 'name', value: [1, 2] }] }],
        ['PATCH', `/scim/v2/Users/${user['id']}`, { Operations: [{ op: 'replace', path: 123, value: 'x' }] }],
        ['PATCH', `/scim/v2/Users/${user['id']}`, { Operations: [null] }],
        ['PATCH', `/scim/v2/Users/${user['id']}`, { Operations: 'add' }],
        ['PATCH', `/scim/v2/Groups/${group['id']}`, { Operations: [{ op: 'add', path: 'members', value: [{ value: 5 }] }] }],
        [
          'PATCH',
          `/scim/v2/Groups/${group['id']}`,
          { Operations: [{ op: 'add', path: 'members', value: [{ value: 'x', type: 'Group' }] }] },
        ],
        ['PATCH', `/scim/v2/Groups/${group['id']}`, { Operations: [{ op: 'remove', path: 'displayName' }] }],
        ['POST', '/scim/v2/Users', { userName: ['a'] }],
        ['POST', '/scim/v2/Users', { userName: 'x', emails: 'not-a-list-but-tolerated', name: 'str' }],
        ['POST', '/scim/v2/Users', { userName: 'y', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': 'str' }],
        ['POST', '/scim/v2/Groups', { displayName: 7 }],
        ['PUT', '/scim/v2/Users/scim-user-none', { userName: 'z' }],
        ['POST', '/scim/v2/Users/anything', { userName: 'z' }],
        ['DELETE', '/scim/v2/Schemas', undefined],
      ];
      for (const [method, url, body] of bodies) {
        const response = await h.call(method as 'POST', url, body);
        expect(response.status, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${method} ${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
      const paging = await h.call('GET', '/scim/v2/Users?startIndex=-5&count=-3');
      expect(paging.body).toMatchObject({ startIndex: 1, itemsPerPage: 0, totalResults: 1 });
      expect((await h.call('GET', `/scim/v2/Users/${user['id']}`)).body['meta']).toMatchObject({ version: 'W/"1"' });
    });

    it('serves discovery: ServiceProviderConfig, ResourceTypes and Schemas', async () => {
      const h = await open();
      const config = await h.call('GET', '/scim/v2/ServiceProviderConfig');
      expect(config.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true, maxResults: 100 },
        etag: { supported: true },
      });
      const types = await h.call('GET', '/scim/v2/ResourceTypes');
      expect((types.body['Resources'] as { id: string }[]).map((type) => type.id)).toEqual(['User', 'Group']);
      expect((await h.call('GET', '/scim/v2/ResourceTypes/User')).body['endpoint']).toBe('/Users');
      const schemas = await h.call('GET', '/scim/v2/Schemas');
      expect(schemas.body['totalResults']).toBe(3);
      const user = await h.call('GET', `/scim/v2/Schemas/${userSchemaUrn}`);
      expect((user.body['attributes'] as { name: string; caseExact: boolean }[]).find((attr) => attr.name === 'userName')).toMatchObject({
        caseExact: false,
        uniqueness: 'server',
      });
    });
  });
});
