/**
 * The SCIM schemas this server implements (RFC 7643 sections 4 and 8.7): one attribute table drives filter
 * resolution, case rules, PATCH path checks, body validation and the `/Schemas` discovery endpoint.
 */
export const userSchemaUrn = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const groupSchemaUrn = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const enterpriseUserUrn = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const listResponseUrn = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const patchOpUrn = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const errorUrn = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type AttrType = 'string' | 'boolean' | 'decimal' | 'integer' | 'dateTime' | 'reference' | 'complex';
export type Mutability = 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';

export type AttrDef = {
  readonly name: string;
  readonly type: AttrType;
  readonly multiValued: boolean;
  readonly caseExact: boolean;
  readonly mutability: Mutability;
  readonly required: boolean;
  readonly returned: 'always' | 'default' | 'never';
  readonly uniqueness: 'none' | 'server';
  readonly subAttributes?: readonly AttrDef[];
};

type AttrOptions = Partial<Omit<AttrDef, 'name' | 'type' | 'subAttributes'>>;

const attr = (name: string, type: AttrType, options: AttrOptions = {}, subAttributes?: readonly AttrDef[]): AttrDef => ({
  name,
  type,
  multiValued: options.multiValued ?? false,
  caseExact: options.caseExact ?? false,
  mutability: options.mutability ?? 'readWrite',
  required: options.required ?? false,
  returned: options.returned ?? 'default',
  uniqueness: options.uniqueness ?? 'none',
  ...(subAttributes === undefined ? {} : { subAttributes }),
});

const str = (name: string, options: AttrOptions = {}): AttrDef => attr(name, 'string', options);

/** The usual shape of a multi-valued complex attribute (emails, phoneNumbers, ims, photos, ...). */
const multi = (name: string, valueType: AttrType = 'string', extra: readonly AttrDef[] = []): AttrDef =>
  attr(name, 'complex', { multiValued: true }, [
    attr('value', valueType),
    str('display'),
    str('type'),
    attr('primary', 'boolean'),
    ...extra,
  ]);

const commonAttributes: readonly AttrDef[] = [
  str('id', { caseExact: true, mutability: 'readOnly', returned: 'always', uniqueness: 'server' }),
  str('externalId', { caseExact: true }),
  attr('meta', 'complex', { mutability: 'readOnly' }, [
    str('resourceType', { caseExact: true, mutability: 'readOnly' }),
    attr('created', 'dateTime', { mutability: 'readOnly' }),
    attr('lastModified', 'dateTime', { mutability: 'readOnly' }),
    attr('location', 'reference', { caseExact: true, mutability: 'readOnly' }),
    str('version', { caseExact: true, mutability: 'readOnly' }),
  ]),
];

export const userAttributes: readonly AttrDef[] = [
  ...commonAttributes,
  str('userName', { required: true, uniqueness: 'server' }),
  attr('name', 'complex', {}, [
    str('formatted'),
    str('familyName'),
    str('givenName'),
    str('middleName'),
    str('honorificPrefix'),
    str('honorificSuffix'),
  ]),
  str('displayName'),
  str('nickName'),
  attr('profileUrl', 'reference'),
  str('title'),
  str('userType'),
  str('preferredLanguage'),
  str('locale'),
  str('timezone'),
  attr('active', 'boolean'),
  str('password', { mutability: 'writeOnly', returned: 'never' }),
  multi('emails'),
  multi('phoneNumbers'),
  multi('ims'),
  multi('photos', 'reference'),
  attr('addresses', 'complex', { multiValued: true }, [
    str('formatted'),
    str('streetAddress'),
    str('locality'),
    str('region'),
    str('postalCode'),
    str('country'),
    str('type'),
    attr('primary', 'boolean'),
  ]),
  attr('groups', 'complex', { multiValued: true, mutability: 'readOnly' }, [
    str('value', { mutability: 'readOnly' }),
    attr('$ref', 'reference', { mutability: 'readOnly' }),
    str('display', { mutability: 'readOnly' }),
    str('type', { mutability: 'readOnly' }),
  ]),
  multi('entitlements'),
  multi('roles'),
  multi('x509Certificates'),
];

export const enterpriseAttributes: readonly AttrDef[] = [
  str('employeeNumber'),
  str('costCenter'),
  str('organization'),
  str('division'),
  str('department'),
  attr('manager', 'complex', {}, [str('value'), attr('$ref', 'reference'), str('displayName', { mutability: 'readOnly' })]),
];

export const groupAttributes: readonly AttrDef[] = [
  ...commonAttributes,
  str('displayName', { required: true }),
  attr('members', 'complex', { multiValued: true }, [
    str('value', { mutability: 'immutable', caseExact: true }),
    attr('$ref', 'reference', { mutability: 'immutable' }),
    str('display'),
    str('type', { mutability: 'immutable' }),
  ]),
];

export type ResourceKind = 'User' | 'Group';

/** A schema and its attributes; the core schema of a resource type comes first. */
export type SchemaDef = { readonly urn: string; readonly name: string; readonly attributes: readonly AttrDef[] };

export const schemasOf: Readonly<Record<ResourceKind, readonly SchemaDef[]>> = {
  User: [
    { urn: userSchemaUrn, name: 'User', attributes: userAttributes },
    { urn: enterpriseUserUrn, name: 'EnterpriseUser', attributes: enterpriseAttributes },
  ],
  Group: [{ urn: groupSchemaUrn, name: 'Group', attributes: groupAttributes }],
};

export const findAttr = (attributes: readonly AttrDef[], name: string): AttrDef | undefined => {
  const lower = name.toLowerCase();
  return attributes.find((candidate) => candidate.name.toLowerCase() === lower);
};

/** Sub-attribute definitions of a complex attribute (empty for simple ones). */
export const subAttrsOf = (def: AttrDef): readonly AttrDef[] => def.subAttributes ?? [];

/** The `value` sub-attribute is what a bare multi-valued complex attribute compares against (RFC 7644 3.4.2.2). */
export const valueSubAttr = (def: AttrDef): AttrDef | undefined => findAttr(subAttrsOf(def), 'value');
