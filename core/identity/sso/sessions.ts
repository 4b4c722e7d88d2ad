import { z } from 'zod';
import type { App } from '../../app.ts';
import { describeZodError, SFIdentityError } from '../../errors.ts';
import type { Queryable } from '../../store/database.ts';
import { registerOriginLiveness } from '../sessions/store.ts';
import { newId } from '../scim/ids.ts';
import { boundLimit } from '../../store/sql-text.ts';

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

const rowSchema = z.object({
  session_id: z.string(),
  idp_session_id: z.string(),
  subject: z.string(),
  email: z.string(),
  project_id: z.string(),
  user_id: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked: z.number().int(),
});
type Row = z.output<typeof rowSchema>;
const rowColumns = 'session_id, idp_session_id, subject, email, project_id, user_id, created_at, expires_at, revoked';

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

const provisioned = z.object({ id: z.string(), active: z.number().int() });

/**
 * Binds an IdP session to a new workbench session (`sso-<ulid>`, 8 h by default). When the subject is a
 * provisioned SCIM user the session is linked to them, so deleting or deactivating the user kills it; a
 * deactivated user gets no session (SFIdentityError FORBIDDEN). The look-up and the insert are one transaction,
 * so a deactivation cannot slip between them.
 */
export const delegateSession = async (app: App, input: DelegateInput): Promise<SSOSession> => {
  const parsed = delegateInput.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  const { idp_session_id, subject, email, project_id, ttl_seconds } = parsed.data;
  const created = app.now();
  const sessionId = newId(app, 'sso-');
  return app.database.transaction(async (tx) => {
    // The SCIM user a subject names (by userName, case-insensitively), if provisioned.
    const user =
      parsed.data.user_id === undefined
        ? await tx.one(provisioned, 'SELECT id, active FROM scim_users WHERE user_name_key = ?', [subject.toLowerCase()])
        : { id: parsed.data.user_id, active: 1 };
    if (user?.active === 0) throw new SFIdentityError('The user is deactivated', { code: 'FORBIDDEN' });
    const row: Row = {
      session_id: sessionId,
      idp_session_id,
      subject,
      email,
      project_id,
      user_id: user?.id ?? null,
      created_at: created.toISOString(),
      expires_at: new Date(created.getTime() + (ttl_seconds ?? defaultSessionSeconds) * 1000).toISOString(),
      revoked: 0,
    };
    await tx.run(`INSERT INTO sso_sessions (${rowColumns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      row.session_id,
      row.idp_session_id,
      row.subject,
      row.email,
      row.project_id,
      row.user_id,
      row.created_at,
      row.expires_at,
      row.revoked,
    ]);
    return toSession(row);
  });
};

const rowOf = (db: Queryable, id: string): Promise<Row | undefined> =>
  db.one(rowSchema, `SELECT ${rowColumns} FROM sso_sessions WHERE session_id = ?`, [id]);

/** A live session; SFIdentityError when unknown (NOT_FOUND), revoked or expired (UNAUTHENTICATED). */
export const getSession = async (app: App, id: string): Promise<SSOSession> => {
  const row = typeof id === 'string' ? await rowOf(app.database, id) : undefined;
  if (row === undefined) throw new SFIdentityError('SSO session not found', { code: 'NOT_FOUND' });
  if (row.revoked === 1) throw new SFIdentityError('SSO session revoked', { code: 'UNAUTHENTICATED' });
  if (Date.parse(row.expires_at) <= app.now().getTime()) throw new SFIdentityError('SSO session expired', { code: 'UNAUTHENTICATED' });
  return toSession(row);
};

export const isSessionActive = async (app: App, id: string): Promise<boolean> => {
  const row = await rowOf(app.database, id);
  return row !== undefined && row.revoked === 0 && Date.parse(row.expires_at) > app.now().getTime();
};

const revokeWhere = (db: Queryable, now: string, where: 'idp_session_id' | 'session_id' | 'user_id', value: string): Promise<number> =>
  db.run(`UPDATE sso_sessions SET revoked = 1, revoked_at = ? WHERE ${where} = ? AND revoked = 0`, [now, value]);

/** Revokes every session delegated from an IdP session (IdP logout); true when any was live. */
export const revokeIdpSession = async (app: App, idpSessionId: string): Promise<boolean> =>
  (await revokeWhere(app.database, app.now().toISOString(), 'idp_session_id', idpSessionId)) > 0;

/** Revokes one workbench session; true when it was live. */
export const revokeSession = async (app: App, sessionId: string): Promise<boolean> =>
  (await revokeWhere(app.database, app.now().toISOString(), 'session_id', sessionId)) > 0;

/** Revokes every session of a SCIM user (deletion, deactivation) in the caller's transaction; returns how many. */
export const revokeSessionsOfUser = (tx: Queryable, now: string, userId: string): Promise<number> =>
  revokeWhere(tx, now, 'user_id', userId);

export type SessionListQuery = { readonly includeInactive?: boolean; readonly limit?: number };

/** Sessions for the admin screen, newest first: live ones only unless asked. */
export const listSessions = async (app: App, query: SessionListQuery = {}): Promise<SSOSession[]> => {
  const limit = Math.min(Math.max(query.limit ?? 500, 1), 5000);
  const rows =
    query.includeInactive === true
      ? await app.database.all(rowSchema, `SELECT ${rowColumns} FROM sso_sessions ORDER BY session_id DESC LIMIT ${boundLimit}`, [limit])
      : await app.database.all(
          rowSchema,
          `SELECT ${rowColumns} FROM sso_sessions WHERE revoked = 0 AND expires_at > ? ORDER BY session_id DESC LIMIT ${boundLimit}`,
          [app.now().toISOString(), limit],
        );
  return rows.map(toSession);
};

// Workbench sessions started from an SSO session die with it.
registerOriginLiveness('sso-', isSessionActive);
