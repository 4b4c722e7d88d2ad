import type { App } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import type { Queryable } from '../../store/database.ts';
import { scimError } from './errors.ts';
import { etagOf } from './wire.ts';

/**
 * Runs a read-modify-write in one transaction. SQLite's BEGIN IMMEDIATE takes the write lock before the read;
 * on PostgreSQL the read of the resource takes its row lock (`forUpdate`), so two writers (requests, processes
 * or instances) never both read version N and both write N+1.
 */
export const writeTransaction = <T>(app: App, work: (tx: Queryable) => Promise<T>): Promise<T> => app.database.transaction(work);

/** The row-lock suffix of the read in a read-modify-write: PostgreSQL needs it, SQLite's writer lock is already held. */
export const forUpdate = (tx: Queryable): string => (tx.dialect === 'postgres' ? ' FOR UPDATE' : '');

/** RFC 7644 3.14: a write with If-Match must name the current version (or "*"). */
export const checkIfMatch = (ifMatch: string | undefined, version: number): void => {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const current = etagOf(version);
  const accepted = ifMatch.split(',').map((tag) => tag.trim());
  if (!accepted.some((tag) => tag === current || `W/${tag}` === current)) {
    throw new SFIdentityError(`Version mismatch: the resource is at ${current}`, { code: 'CONFLICT', status: 412 });
  }
};

/** The unique-index violation on the userName key, as SQLite and PostgreSQL (23505, named constraint) report it. */
const isUserNameClash = (error: unknown): boolean => {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || (code === '23505' && constraint === 'scim_users_user_name_key');
};

/** Turns the UNIQUE violation on the userName key into the SCIM uniqueness error (409). */
export const uniqueUserName = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (isUserNameClash(error)) throw scimError('uniqueness', 'A user with this userName already exists', error);
    throw error;
  }
};
