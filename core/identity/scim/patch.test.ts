import { describe, expect, it } from 'vitest';
import { scimFailure as failure } from './test/scim-type-of-failure.ts';
import { normalizeResource } from './normalize.ts';
import { applyPatch, parsePatchRequest } from './patch.ts';
import { enterpriseUserUrn, patchOpUrn } from './schema.ts';

const user = () => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  id: 'scim-user-1',
  userName: 'alice',
  active: true,
  name: { givenName: 'Alice', familyName: 'Liddell' },
  emails: [
    { value: 'alice@work.test', type: 'work', primary: true },
    { value: 'alice@home.test', type: 'home' },
  ],
  groups: [{ value: 'scim-group-1', display: 'Ops' }],
  meta: { resourceType: 'User', version: 'W/"1"' },
});

const patch = (ops: unknown[], resource: Record<string, unknown> = user()) =>
  normalizeResource('User', applyPatch('User', resource, parsePatchRequest({ schemas: [patchOpUrn], Operations: ops })));

describe('SCIM PATCH (RFC 7644 3.5.2)', () => {
  it('replaces with a path, and without one (value object)', () => {
    expect(patch([{ op: 'replace', path: 'active', value: false }])['active']).toBe(false);
    const result = patch([{ op: 'replace', value: { active: false, displayName: 'A. L.' } }]);
    expect(result).toMatchObject({ active: false, displayName: 'A. L.' });
  });

  it('accepts capitalised ops, "True"/"False" strings and dotted keys (Entra)', () => {
    const result = patch([
      { op: 'Replace', path: 'active', value: 'False' },
      { op: 'Add', value: { 'name.givenName': 'Alicia', [`${enterpriseUserUrn}:manager`]: 'scim-user-9', title: 'CTO' } },
    ]);
    expect(result['active']).toBe(false);
    expect(result['name']).toEqual({ givenName: 'Alicia', familyName: 'Liddell' });
    expect(result[enterpriseUserUrn]).toEqual({ manager: { value: 'scim-user-9' } });
    expect(result['title']).toBe('CTO');
  });

  it('adds to multi-valued attributes without duplicates, and the new primary wins', () => {
    const result = patch([
      {
        op: 'add',
        path: 'emails',
        value: [
          { value: 'alice@new.test', type: 'other', primary: true },
          { value: 'alice@home.test', type: 'home' },
        ],
      },
    ]);
    const emails = result['emails'] as { value: string; primary?: boolean }[];
    expect(emails.map((email) => email.value)).toEqual(['alice@work.test', 'alice@home.test', 'alice@new.test']);
    expect(emails.filter((email) => email.primary === true).map((email) => email.value)).toEqual(['alice@new.test']);
  });

  it('addresses elements with value filters and sub-attributes', () => {
    const replaced = patch([{ op: 'replace', path: 'emails[type eq "work"].value', value: 'a@w2.test' }]);
    expect((replaced['emails'] as { value: string }[])[0]?.value).toBe('a@w2.test');
    const removed = patch([{ op: 'remove', path: 'emails[type eq "home"]' }]);
    expect((removed['emails'] as unknown[]).length).toBe(1);
    const created = patch([{ op: 'add', path: 'emails[type eq "other"].value', value: 'a@other.test' }]);
    expect(created['emails']).toContainEqual({ type: 'other', value: 'a@other.test' });
    const whole = patch([{ op: 'replace', path: 'emails[type eq "home"]', value: { value: 'h@h.test', type: 'home' } }]);
    expect(whole['emails']).toContainEqual({ value: 'h@h.test', type: 'home' });
  });

  it('removes attributes, sub-attributes and named multi-values', () => {
    expect(patch([{ op: 'remove', path: 'name.givenName' }])['name']).toEqual({ familyName: 'Liddell' });
    expect(patch([{ op: 'remove', path: 'emails' }])['emails']).toBeUndefined();
    const some = patch([{ op: 'Remove', path: 'emails', value: [{ value: 'alice@home.test' }] }]);
    expect((some['emails'] as { value: string }[]).map((email) => email.value)).toEqual(['alice@work.test']);
  });

  it('ignores an unchanged read-only value in a value object (Okta repeats the id)', () => {
    expect(patch([{ op: 'replace', value: { id: 'scim-user-1', displayName: 'Al' } }])['displayName']).toBe('Al');
  });

  it('is atomic: a failing operation leaves the input untouched', () => {
    const original = user();
    const before = structuredClone(original);
    expect(
      failure(() =>
        applyPatch(
          'User',
          original,
          parsePatchRequest([
            { op: 'replace', path: 'active', value: false },
            { op: 'replace', path: 'nope', value: 1 },
          ]),
        ),
      ),
    ).toBe('invalidPath');
    expect(original).toEqual(before);
  });

  it('reports each error with its scimType', () => {
    expect(failure(() => patch([{ op: 'remove' }]))).toBe('noTarget');
    expect(failure(() => patch([{ op: 'replace', path: 'emails[type eq "fax"]', value: { value: 'x' } }]))).toBe('noTarget');
    expect(failure(() => patch([{ op: 'replace', path: 'id', value: 'other' }]))).toBe('mutability');
    expect(failure(() => patch([{ op: 'add', path: 'groups', value: [{ value: 'g' }] }]))).toBe('mutability');
    expect(failure(() => patch([{ op: 'replace', value: { id: 'different' } }]))).toBe('mutability');
    expect(failure(() => patch([{ op: 'replace', path: 'nickName2', value: 'x' }]))).toBe('invalidPath');
    expect(failure(() => patch([{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }]))).toBe('invalidPath');
    expect(failure(() => patch([{ op: 'replace', path: 'emails[bogus eq "work"]', value: 'x' }]))).toBe('invalidPath');
    expect(failure(() => patch([{ op: 'replace', path: 'active[value eq "x"]', value: 'x' }]))).toBe('invalidPath');
    expect(failure(() => patch([{ op: 'replace', path: 'active', value: 'maybe' }]))).toBe('invalidValue');
    expect(failure(() => patch([{ op: 'replace', path: 'userName', value: 7 }]))).toBe('invalidValue');
    expect(failure(() => patch([{ op: 'remove', path: 'userName' }]))).toBe('invalidValue');
    expect(failure(() => patch([{ op: 'replace', value: 'not an object' }]))).toBe('invalidValue');
    expect(failure(() => patch([{ op: 'add', path: 'title' }]))).toBe('invalidValue');
    expect(failure(() => patch([{ op: 'move', path: 'title', value: 'x' }]))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ schemas: ['urn:wrong'], Operations: [] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest({ schemas: [patchOpUrn], Operations: [] }))).toBe('invalidSyntax');
    expect(failure(() => parsePatchRequest(Array.from({ length: 1001 }, () => ({ op: 'remove', path: 'title' }))))).toBe('tooMany');
  });
});
