import { z } from 'zod';
import { defineOp } from '../../ops/define.ts';
import { delegateInput, delegateSession, getSession, listSessions, revokeIdpSession, revokeSession } from './sessions.ts';

/** SSO session administration for the SSO Sessions screen (admin tier). */
export const ssoOps = {
  'identity.ssoListSessions': defineOp({
    summary: 'List delegated SSO sessions, newest first (live ones unless include_inactive)',
    input: z.object({ include_inactive: z.boolean().default(false), limit: z.number().int().min(1).max(5000).default(500) }),
    access: 'read',
    tier: 'admin',
    handler: async (input, { app }) => listSessions(app, { includeInactive: input.include_inactive, limit: input.limit }),
  }),
  'identity.ssoGetSession': defineOp({
    summary: 'Get a live SSO session (fails when unknown, revoked or expired)',
    input: z.object({ session_id: z.string().min(1).max(100) }),
    access: 'read',
    tier: 'admin',
    handler: async (input, { app }) => getSession(app, input.session_id),
  }),
  'identity.ssoDelegateSession': defineOp({
    summary: 'Bind an IdP session to a new workbench session (8 h by default)',
    input: delegateInput,
    access: 'write',
    tier: 'admin',
    handler: async (input, { app }) => delegateSession(app, input),
  }),
  'identity.ssoRevokeIdpSession': defineOp({
    summary: 'Revoke every session delegated from an IdP session; true when any was live',
    input: z.object({ idp_session_id: z.string().min(1).max(512) }),
    access: 'write',
    tier: 'admin',
    handler: async (input, { app }) => revokeIdpSession(app, input.idp_session_id),
  }),
  'identity.ssoRevokeSession': defineOp({
    summary: 'Revoke one workbench SSO session; true when it was live',
    input: z.object({ session_id: z.string().min(1).max(100) }),
    access: 'write',
    tier: 'admin',
    handler: async (input, { app }) => revokeSession(app, input.session_id),
  }),
} as const;
