import { ulid } from 'ulid';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';
import { boundLimit } from '../../store/sql-text.ts';

/** A workbench session as the admin screen shows it (never the token). */
export type WorkbenchSession = {
  readonly id: string;
  readonly amr: string;
  readonly subject: string;
  readonly tier: string;
  /** The API key (`key-…`) or SSO session (`sso-…`) it was started from; null for the one-time link. */
  readonly origin: string | null;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked_at: string | null;
  readonly status: 'active' | 'expired' | 'revoked';
};

/** A row of `sessions` as both back ends return it. */
const sessionRow = z.object({
  id: z.string(),
  amr: z.string(),
  subject: z.string(),
  tier: z.string(),
  origin: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
});
type Row = z.infer<typeof sessionRow>;
const selectSessions = `SELECT ${Object.keys(sessionRow.shape).join(', ')} FROM sessions`;

/**
 * Whether the key or SSO session a session came from is still alive; each domain registers its id prefix.
 * A check may be synchronous while its domain has not moved onto the asynchronous Database.
 */
export type OriginLiveness = (app: App, origin: string) => boolean | Promise<boolean>;
const originChecks = new Map<string, OriginLiveness>();
export const registerOriginLiveness = (prefix: string, check: OriginLiveness): void => void originChecks.set(prefix, check);

const statusOf = (row: Row, now: Date): WorkbenchSession['status'] =>
  row.revoked_at !== null ? 'revoked' : Date.parse(row.expires_at) <= now.getTime() ? 'expired' : 'active';

export const createSession = async (
  app: App,
  session: { amr: string; subject: string; tier: string; origin?: string | undefined; lifetimeSeconds: number },
): Promise<WorkbenchSession> => {
  const now = app.now();
  const row: Row = {
    id: `ses-${ulid(now.getTime())}`,
    amr: session.amr,
    subject: session.subject,
    tier: session.tier,
    origin: session.origin ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + session.lifetimeSeconds * 1000).toISOString(),
    revoked_at: null,
  };
  await app.database.transaction(async (tx) => {
    // Exchanged tokens add a row every 15 minutes per client: rows a week past their end are history.
    await tx.run('DELETE FROM sessions WHERE expires_at < ?', [new Date(now.getTime() - 7 * 86_400_000).toISOString()]);
    await tx.run(
      `INSERT INTO sessions (id, amr, subject, tier, origin, created_at, expires_at, revoked_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [row.id, row.amr, row.subject, row.tier, row.origin, row.created_at, row.expires_at, row.revoked_at],
    );
  });
  return { ...row, status: 'active' };
};

/** The key or SSO session a session was started from (null for the one-time link or an unknown id). */
export const sessionOrigin = async (app: App, id: string): Promise<string | null> =>
  (await app.database.one(sessionRow.pick({ origin: true }), 'SELECT origin FROM sessions WHERE id = ?', [id]))?.origin ?? null;

/**
 * Live = not revoked, not expired, and the key or SSO session it came from is live too. Read from the database
 * on every request: ending a session on any instance counts from its commit, everywhere.
 */
export const isSessionLive = async (app: App, id: string): Promise<boolean> => {
  const row = await app.database.one(sessionRow, `${selectSessions} WHERE id = ?`, [id]);
  if (row === undefined || statusOf(row, app.now()) !== 'active') return false;
  if (row.origin === null) return true;
  for (const [prefix, check] of originChecks) if (row.origin.startsWith(prefix)) return check(app, row.origin);
  return false;
};

export const listWorkbenchSessions = async (
  app: App,
  options: { includeInactive: boolean; limit: number },
): Promise<WorkbenchSession[]> => {
  const now = app.now();
  const rows = options.includeInactive
    ? await app.database.all(sessionRow, `${selectSessions} ORDER BY id DESC LIMIT ${boundLimit}`, [options.limit])
    : await app.database.all(
        sessionRow,
        `${selectSessions} WHERE revoked_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT ${boundLimit}`,
        [now.toISOString(), options.limit],
      );
  return rows.map((row) => ({ ...row, status: statusOf(row, now) }));
};

/** Ends one session (logout, or an admin); true when it was live. */
export const revokeWorkbenchSession = async (app: App, id: string): Promise<boolean> => {
  const ended = await app.database.run('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [
    app.now().toISOString(),
    id,
  ]);
  if (ended === 0 && (await app.database.one(sessionRow.pick({ id: true }), 'SELECT id FROM sessions WHERE id = ?', [id])) === undefined) {
    throw new AppError('NOT_FOUND', `No session ${id}`);
  }
  return ended > 0;
};

/** Ends every session (session key rotation); returns how many were live. */
export const revokeAllSessions = async (app: App): Promise<number> => {
  const now = app.now().toISOString();
  return app.database.run('UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND expires_at > ?', [now, now]);
};
