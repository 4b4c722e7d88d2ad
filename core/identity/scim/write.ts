import type { Statement } from 'better-sqlite3';
import { type App, service } from '../../app.ts';
import { SFIdentityError } from '../../errors.ts';
import { scimError } from './errors.ts';
import { etagOf } from './wire.ts';

/**
 * Runs a read-modify-write in an IMMEDIATE transaction: the write lock is taken before the read, so two writers
 * (requests, or processes sharing the file) never both read version N and both write N+1.
 */
export const writeTransaction = <T>(app: App, work: () => T): T => app.db.transaction(work).immediate();

/** RFC 7644 3.14: a write with If-Match must name the current version (or "*"). */
export const checkIfMatch = (ifMatch: string | undefined, version: number): void => {
  if (ifMatch === undefined || ifMatch.trim() === '*') return;
  const current = etagOf(version);
  const accepted = ifMatch.split(',').map((tag) => tag.trim());
  if (!accepted.some((tag) => tag === current || `W/${tag}` === current)) {
    throw new SFIdentityError(`Version mismatch: the resource is at ${current}`, { code: 'CONFLICT', status: 412 });
  }
};

/** Turns SQLite's UNIQUE violation on the userName key into the SCIM uniqueness error (409). */
export const uniqueUserName = <T>(work: () => T): T => {
  try {
    return work();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
      throw scimError('uniqueness', 'A user with this userName already exists', error);
    }
    throw error;
  }
};

/** Prepared statements are compiled once per app and SQL text: look-ups are the hot path of every request. */
export const sql = (app: App, text: string): Statement => {
  const cache = service(app, 'scim.statements', () => new Map<string, Statement>());
  let statement = cache.get(text);
  if (statement === undefined) {
    statement = app.db.prepare(text);
    cache.set(text, statement);
  }
  return statement;
};
