import { ulid } from 'ulid';
import type { App } from '../../app.ts';
import { AppError } from '../../errors.ts';

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

type Row = Omit<WorkbenchSession, 'status'>;

/** Whether the key or SSO session a session came from is still alive; each domain registers its id prefix. */
export type OriginLiveness = (app: App, origin: string) => boolean;
const originChecks = new Map<string, OriginLiveness>();
export const registerOriginLiveness = (prefix: string, check: OriginLiveness): void => void originChecks.set(prefix, check);

const statusOf = (row: Row, now: Date): WorkbenchSession['status'] =>
  row.revoked_at !== null ? 'revoked' : Date.parse(row.expires_at) <= now.getTime() ? 'expired' : 'active';

export const createSession = (
  app: App,
  session: { amr: string; subject: string; tier: string; origin?: string | undefined; lifetimeSeconds: number },
): WorkbenchSession => {
  const now = app.now();
  // Exchanged tokens add a row every 15 minutes per client: rows a week past their end are history.
  app.db.prepare('DELETE FROM sessions WHERE expires_at < ?').run(new Date(now.getTime() - 7 * 86_400_000).toISOString());
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
  app.db
    .prepare(
      `INSERT INTO sessions (id, amr, subject, tier, origin, created_at, expires_at, revoked_at)
       VALUES (@id, @amr, @subject, @tier, @origin, @created_at, @expires_at, @revoked_at)`,
    )
    .run(row);
  return { ...row, status: 'active' };
};

/** The key or SSO session a session was started from (null for the one-time link or an unknown id). */
export const sessionOrigin = (app: App, id: string): string | null =>
  (app.db.prepare('SELECT origin FROM sessions WHERE id = ?').get(id) as { origin: string | null } | undefined)?.origin ?? null;

/** Live = not revoked, not expired, and the key or SSO session it came from is live too. */
export const isSessionLive = (app: App, id: string): boolean => {
  const row = app.db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Row | undefined;
  if (row === undefined || statusOf(row, app.now()) !== 'active') return false;
  if (row.origin === null) return true;
  for (const [prefix, check] of originChecks) if (row.origin.startsWith(prefix)) return check(app, row.origin);
  return false;
};

export const listWorkbenchSessions = (app: App, options: { includeInactive: boolean; limit: number }): WorkbenchSession[] => {
  const now = app.now();
  const rows = (
    options.includeInactive
      ? app.db.prepare('SELECT * FROM sessions ORDER BY id DESC LIMIT ?').all(options.limit)
      : app.db
          .prepare('SELECT * FROM sessions WHERE revoked_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT ?')
          .all(now.toISOString(), options.limit)
  ) as Row[];
  return rows.map((row) => ({ ...row, status: statusOf(row, now) }));
};

/** Ends one session (logout, or an admin); true when it was live. */
export const revokeWorkbenchSession = (app: App, id: string): boolean => {
  if (app.db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(id) === undefined) throw new AppError('NOT_FOUND', `No session ${id}`);
  return (
    app.db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(app.now().toISOString(), id).changes > 0
  );
};

/** Ends every session (session key rotation); returns how many were live. */
export const revokeAllSessions = (app: App): number =>
  app.db
    .prepare('UPDATE sessions SET revoked_at = ? WHERE revoked_at IS NULL AND expires_at > ?')
    .run(app.now().toISOString(), app.now().toISOString()).changes;
