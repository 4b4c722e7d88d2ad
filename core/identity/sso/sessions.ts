import { z } from 'zod';
import type { App } from '../../app.ts';
import { describeZodError, SFIdentityError } from '../../errors.ts';
import { registerOriginLiveness } from '../sessions/store.ts';
import { newId } from '../scim/ids.ts';

/** Spec 2.5 SSOSession. */
export type SSOSession = {
  readonly session_id: string;
  readonly idp_session_id: string;
  readonly subject: string;
  readonly email: string;
  readonly project_id: string;
  readonly created_at: string;
  readonly expires_at: string;
  readonly revoked: boolean;
};

/** Spec section 8: delegated sessions live 8 hours unless told otherwise. */
export const defaultSessionSeconds = 8 * 60 * 60;

const text = (max: number) => z.string().trim().max(max);
export const delegateInput = z.object({
  idp_session_id: text(512).min(1),
  subject: text(512).min(1),
  email: text(320).default(''),
  project_id: text(200).min(1).default('default'),
  user_id: text(100).optional(),
  ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .optional(),
});
export type DelegateInput = z.input<typeof delegateInput>;

type Row = Omit<SSOSession, 'revoked'> & { revoked: number; user_id: string | null };

const toSession = (row: Row): SSOSession => ({
  session_id: row.session_id,
  idp_session_id: row.idp_session_id,
  subject: row.subject,
  email: row.email,
  project_id: row.project_id,
  created_at: row.created_at,
  expires_at: row.expires_at,
  revoked: row.revoked === 1,
});

const invalid = (error: z.ZodError): SFIdentityError => new SFIdentityError(describeZodError(error, 20), { cause: error });

/** The SCIM user a subject names (by userName, case-insensitively), if provisioned. */
const provisionedUser = (app: App, subject: string): { id: string; active: number } | undefined =>
  app.db.prepare('SELECT id, active FROM scim_users WHERE user_name_key = ?').get(subject.toLowerCase()) as
    | { id: string; active: number }
    | undefined;

/**
 * Binds an IdP session to a new workbench session (`sso-<ulid>`, 8 h by default). When the subject is a
 * provisioned SCIM user the session is linked to them, so deleting or deactivating the user kills it; a
 * deactivated user gets no session (SFIdentityError FORBIDDEN).
 */
export const delegateSession = (app: App, input: DelegateInput): SSOSession => {
  const parsed = delegateInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  const { idp_session_id, subject, email, project_id, ttl_seconds } = parsed.data;
  const user = parsed.data.user_id === undefined ? provisionedUser(app, subject) : { id: parsed.data.user_id, active: 1 };
  if (user?.active === 0) throw new SFIdentityError('The user is deactivated', { code: 'FORBIDDEN' });
  const created = app.now();
  const row: Row = {
    session_id: newId(app, 'sso-'),
    idp_session_id,
    subject,
    email,
    project_id,
    user_id: user?.id ?? null,
    created_at: created.toISOString(),
    expires_at: new Date(created.getTime() + (ttl_seconds ?? defaultSessionSeconds) * 1000).toISOString(),
    revoked: 0,
  };
  app.db
    .prepare(
      `INSERT INTO sso_sessions (session_id, idp_session_id, subject, email, project_id, user_id, created_at, expires_at, revoked)
       VALUES (@session_id, @idp_session_id, @subject, @email, @project_id, @user_id, @created_at, @expires_at, @revoked)`,
    )
    .run(row);
  return toSession(row);
};

/** Non-blocking variant (spec 4.4): runs the same delegation on a later turn of the event loop. */
export const delegateSessionAsync = (app: App, input: DelegateInput): Promise<SSOSession> =>
  new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        resolve(delegateSession(app, input));
      } catch (error) {
        reject(error);
      }
    }),
  );

const rowOf = (app: App, id: string): Row | undefined =>
  app.db.prepare('SELECT * FROM sso_sessions WHERE session_id = ?').get(id) as Row | undefined;

/** A live session; SFIdentityError when unknown (NOT_FOUND), revoked or expired (UNAUTHENTICATED). */
export const getSession = (app: App, id: string): SSOSession => {
  const row = typeof id === 'string' ? rowOf(app, id) : undefined;
  if (row === undefined) throw new SFIdentityError('SSO session not found', { code: 'NOT_FOUND' });
  if (row.revoked === 1) throw new SFIdentityError('SSO session revoked', { code: 'UNAUTHENTICATED' });
  if (Date.parse(row.expires_at) <= app.now().getTime()) throw new SFIdentityError('SSO session expired', { code: 'UNAUTHENTICATED' });
  return toSession(row);
};

export const isSessionActive = (app: App, id: string): boolean => {
  const row = rowOf(app, id);
  return row !== undefined && row.revoked === 0 && Date.parse(row.expires_at) > app.now().getTime();
};

const revokeWhere = (app: App, where: string, value: string): number =>
  app.db
    .prepare(`UPDATE sso_sessions SET revoked = 1, revoked_at = ? WHERE ${where} = ? AND revoked = 0`)
    .run(app.now().toISOString(), value).changes;

/** Revokes every session delegated from an IdP session (IdP logout); true when any was live. */
export const revokeIdpSession = (app: App, idpSessionId: string): boolean => revokeWhere(app, 'idp_session_id', idpSessionId) > 0;

/** Revokes one workbench session; true when it was live. */
export const revokeSession = (app: App, sessionId: string): boolean => revokeWhere(app, 'session_id', sessionId) > 0;

/** Revokes every session of a SCIM user (deletion, deactivation); returns how many. */
export const revokeSessionsOfUser = (app: App, userId: string): number => revokeWhere(app, 'user_id', userId);

export type SessionListQuery = { readonly includeInactive?: boolean; readonly limit?: number };

/** Sessions for the admin screen, newest first: live ones only unless asked. */
export const listSessions = (app: App, query: SessionListQuery = {}): SSOSession[] => {
  const limit = Math.min(Math.max(query.limit ?? 500, 1), 5000);
  const rows = (
    query.includeInactive === true
      ? app.db.prepare('SELECT * FROM sso_sessions ORDER BY session_id DESC LIMIT ?').all(limit)
      : app.db
          .prepare('SELECT * FROM sso_sessions WHERE revoked = 0 AND expires_at > ? ORDER BY session_id DESC LIMIT ?')
          .all(app.now().toISOString(), limit)
  ) as Row[];
  return rows.map(toSession);
};

// Workbench sessions started from an SSO session die with it.
registerOriginLiveness('sso-', isSessionActive);
