import type { ErrorCode } from '../../errors.ts';
import { AppError, SFIdentityError } from '../../errors.ts';

/** The `scimType` values of RFC 7644 section 3.12 that this server emits. */
export const scimTypes = [
  'invalidFilter',
  'tooMany',
  'uniqueness',
  'mutability',
  'invalidSyntax',
  'invalidPath',
  'noTarget',
  'invalidValue',
] as const;
export type ScimType = (typeof scimTypes)[number];

const codeFor = (scimType: ScimType): ErrorCode => (scimType === 'uniqueness' ? 'CONFLICT' : 'VALIDATION');

/**
 * A SCIM protocol error: an SFIdentityError (so SDK callers catch one family) carrying the scimType that the
 * HTTP layer puts in the RFC 7644 error body. Uniqueness is 409; every other scimType is a 400.
 */
export const scimError = (scimType: ScimType, message: string, cause?: unknown): SFIdentityError =>
  new SFIdentityError(message, {
    code: codeFor(scimType),
    detail: { scimType },
    ...(cause === undefined ? {} : { cause }),
  });

export const notFound = (kind: 'User' | 'Group', id: string): SFIdentityError =>
  new SFIdentityError(`${kind} ${id.slice(0, 100)} not found`, { code: 'NOT_FOUND' });

/** The scimType an error carries, if any. */
export const scimTypeOf = (error: unknown): ScimType | undefined => {
  if (!(error instanceof AppError)) return undefined;
  const value = error.detail?.['scimType'];
  return typeof value === 'string' && (scimTypes as readonly string[]).includes(value) ? (value as ScimType) : undefined;
};
