import { z } from 'zod';
import { defineOp } from '../../ops/define.ts';
import { rotateSessionKey } from '../api-keys/jwt.ts';
import { listWorkbenchSessions, revokeWorkbenchSession } from './store.ts';

/** Session administration (admin tier): every session JWT is a row that can be listed and ended. */
export const sessionOps = {
  'sessions.list': defineOp({
    summary: 'List workbench sessions (key exchange, one-time link, SSO), newest first; live ones unless include_inactive',
    input: z.object({ include_inactive: z.boolean().default(false), limit: z.number().int().min(1).max(5000).default(500) }),
    access: 'read',
    tier: 'admin',
    handler: async (input, { app }) => listWorkbenchSessions(app, { includeInactive: input.include_inactive, limit: input.limit }),
  }),
  'sessions.revoke': defineOp({
    summary: 'End one session at once (its tokens and cookie stop working); true when it was live',
    input: z.object({ id: z.string().startsWith('ses-').max(100) }),
    access: 'write',
    tier: 'admin',
    handler: async (input, { app }) => revokeWorkbenchSession(app, input.id),
  }),
  'sessions.rotateKey': defineOp({
    summary: 'Rotate the session signing key: every session ends, everyone signs in again',
    input: z.object({}),
    access: 'write',
    tier: 'admin',
    handler: async (_input, { app }) => rotateSessionKey(app),
  }),
} as const;
