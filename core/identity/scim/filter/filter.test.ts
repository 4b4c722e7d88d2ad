import { describe, expect, it } from 'vitest';
import { scimFailure as failure } from '../test/scim-type-of-failure.ts';
import { enterpriseUserUrn } from '../schema.ts';
import { compileFilter } from './compile.ts';
import { parseFilter, parsePatchPath } from './parser.ts';
import { indexKeyOf } from './plan.ts';

const alice = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User', enterpriseUserUrn],
  id: 'scim-user-01A',
  externalId: 'Ext-1',
  userName: 'Alice@Example.com',
  name: { givenName: 'Alice', familyName: 'Liddell' },
  displayName: 'Alice Liddell',
  title: 'Engineer',
  active: true,
  emails: [
    { value: 'alice@example.com', type: 'work', primary: true },
    { value: 'alice@home.org', type: 'home' },
  ],
  [enterpriseUserUrn]: { department: 'R&D', manager: { value: 'scim-user-01B' } },
  meta: { resourceType: 'User', created: '2026-01-02T03:04:05.000Z', lastModified: '2026-02-01T00:00:00.000Z', version: 'W/"3"' },
};
const bob = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: 'scim-user-01B',
  userName: 'bob',
  active: false,
  emails: [{ value: 'bob@corp.test', type: 'work' }],
  meta: { resourceType: 'User', created: '2025-06-01T00:00:00.000Z', lastModified: '2025-06-01T00:00:00.000Z', version: 'W/"1"' },
};

const matching = (filter: string): string[] => {
  const predicate = compileFilter(parseFilter(filter), 'User');
  return [alice, bob].filter((user) => predicate(user)).map((user) => user.userName);
};

describe('SCIM filter (RFC 7644 3.4.2.2)', () => {
  it('compares userName case-insensitively and id case-sensitively', () => {
    expect(matching('userName eq "alice@example.COM"')).toEqual(['Alice@Example.com']);
    expect(matching('id eq "scim-user-01a"')).toEqual([]);
    expect(matching('id eq "scim-user-01A"')).toEqual(['Alice@Example.com']);
    expect(matching('externalId eq "ext-1"')).toEqual([]);
  });

  it('treats attribute names and operators case-insensitively', () => {
    expect(matching('USERNAME EQ "bob"')).toEqual(['bob']);
    expect(matching('name.GIVENNAME Sw "ali"')).toEqual(['Alice@Example.com']);
  });

  it('supports every comparison operator', () => {
    expect(matching('userName ne "bob"')).toEqual(['Alice@Example.com']);
    expect(matching('displayName co "liddell"')).toEqual(['Alice@Example.com']);
    expect(matching('userName ew ".com"')).toEqual(['Alice@Example.com']);
    expect(matching('userName gt "b"')).toEqual(['bob']);
    expect(matching('userName ge "bob"')).toEqual(['bob']);
    expect(matching('userName lt "b"')).toEqual(['Alice@Example.com']);
    expect(matching('userName le "alice@example.com"')).toEqual(['Alice@Example.com']);
    expect(matching('title pr')).toEqual(['Alice@Example.com']);
  });

  it('applies precedence not > and > or, and parentheses', () => {
    expect(matching('userName eq "bob" or userName sw "a" and active eq false')).toEqual(['bob']);
    expect(matching('(userName eq "bob" or userName sw "a") and active eq true')).toEqual(['Alice@Example.com']);
    expect(matching('not (active eq true)')).toEqual(['bob']);
    expect(matching('not (active eq true) or not(title pr)')).toEqual(['bob']);
  });

  it('evaluates value paths, sub-attributes and bare multi-valued attributes', () => {
    expect(matching('emails[type eq "work" and value co "@example.com"]')).toEqual(['Alice@Example.com']);
    expect(matching('emails[type eq "home"]')).toEqual(['Alice@Example.com']);
    expect(matching('emails[not (type eq "work")]')).toEqual(['Alice@Example.com']);
    expect(matching('emails.value ew "corp.test"')).toEqual(['bob']);
    expect(matching('emails co "home.org"')).toEqual(['Alice@Example.com']);
    expect(matching('emails.type eq "work" and emails.primary eq true')).toEqual(['Alice@Example.com']);
  });

  it('resolves URN-prefixed names, the enterprise extension included', () => {
    expect(matching('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "bob"')).toEqual(['bob']);
    expect(matching(`${enterpriseUserUrn}:department eq "r&d"`)).toEqual(['Alice@Example.com']);
    expect(matching(`${enterpriseUserUrn}:manager.value eq "scim-user-01B"`)).toEqual(['Alice@Example.com']);
  });

  it('compares booleans, null, dates and escaped strings', () => {
    expect(matching('active eq false')).toEqual(['bob']);
    expect(matching('active eq "True"')).toEqual(['Alice@Example.com']);
    expect(matching('title eq null')).toEqual(['bob']);
    expect(matching('title ne null')).toEqual(['Alice@Example.com']);
    expect(matching('meta.created gt "2025-12-31T23:59:59Z"')).toEqual(['Alice@Example.com']);
    expect(matching('meta.lastModified le "2025-06-01T00:00:00Z"')).toEqual(['bob']);
    expect(matching('displayName eq "Alice \\u004Ciddell"')).toEqual(['Alice@Example.com']);
  });

  it('rejects malformed filters with invalidFilter', () => {
    for (const bad of [
      '',
      'userName',
      'userName eq',
      'userName eq "x',
      'userName xx "x"',
      '(userName eq "x"',
      'userName eq "x")',
      'userName eq "x" and',
      'emails[type eq "work"',
      'emails[type eq "work"]]',
      'not userName eq "x"',
      'userName eq "x" foo',
      'userName eq bar',
      'a.b.c eq "x"',
      'userName eq "x" ; drop',
    ]) {
      expect(
        failure(() => parseFilter(bad)),
        bad,
      ).toBe('invalidFilter');
    }
  });

  it('rejects unknown attributes and wrong types with invalidFilter', () => {
    for (const bad of [
      'nickname2 eq "x"',
      'name.middle eq "x"',
      'urn:example:custom:attr eq "x"',
      'active eq "yes"',
      'active gt true',
      'userName eq 42',
      'name eq "x"',
      'meta.created gt "yesterday"',
      'emails[value eq "x" and emails[type eq "y"]]',
      'emails[nope eq "x"]',
      'userName gt null',
    ]) {
      expect(
        failure(() => compileFilter(parseFilter(bad), 'User')),
        bad,
      ).toBe('invalidFilter');
    }
  });

  it('refuses filters with too many comparisons (tooMany) and too deep nesting', () => {
    const wide = Array.from({ length: 65 }, (_, index) => `userName eq "u${index}"`).join(' or ');
    expect(failure(() => parseFilter(wide))).toBe('tooMany');
    const deep = `${'('.repeat(40)}userName pr${')'.repeat(40)}`;
    expect(failure(() => parseFilter(deep))).toBe('invalidFilter');
  });

  it('finds the index key of an equality, alone or in a top-level and', () => {
    expect(indexKeyOf(parseFilter('userName eq "X"'), 'User')).toEqual({ attr: 'userName', value: 'X' });
    expect(indexKeyOf(parseFilter('active eq true and externalId eq "e"'), 'User')).toEqual({ attr: 'externalId', value: 'e' });
    expect(indexKeyOf(parseFilter('userName eq "a" or userName eq "b"'), 'User')).toBeUndefined();
    expect(indexKeyOf(parseFilter('userName eq "a"'), 'Group')).toBeUndefined();
  });

  it('parses PATCH paths with value filters and a trailing sub-attribute', () => {
    const path = parsePatchPath('emails[type eq "work"].value');
    expect(path.path.attr).toBe('emails');
    expect(path.subAfterFilter).toBe('value');
    expect(parsePatchPath(`${enterpriseUserUrn}:manager`).path.urn).toBe(enterpriseUserUrn);
    for (const bad of ['emails[type eq "work"', 'emails[type eq "work"].', 'a b', '"x"', 'name.givenName[value eq "x"]']) {
      expect(
        failure(() => parsePatchPath(bad)),
        bad,
      ).toBe('invalidPath');
    }
  });
});
