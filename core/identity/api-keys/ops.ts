import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { issueSessionJwt } from './jwt.ts';
import { createApiKey, createKeyInput, listApiKeys, revokeApiKey, rotateApiKey, validateApiKey } from './service.ts';

const keyId = z.object({ id: z.string().min(1).max(100) });

export const apiKeyOps = {
  'keys.create': defineOp({
    summary: 'Create an API key; the secret is returned once and never again',
    input: createKeyInput,
    access: 'write',
    tier: 'admin',
    handler: async (input, ctx) => createApiKey(ctx.app, input),
    http: { method: 'POST', path: '/v1/keys', status: 201 },
  }),
  'keys.list': defineOp({
    summary: 'List API keys (no secrets)',
    input: z.object({}),
    access: 'read',
    tier: 'admin',
    handler: async (_input, ctx) => listApiKeys(ctx.app),
    http: { method: 'GET', path: '/v1/keys' },
  }),
  'keys.rotate': defineOp({
    summary: 'Issue a new secret for a key; the old one stays valid for grace_seconds',
    input: keyId.extend({
      grace_seconds: z
        .number()
        .int()
        .min(0)
        .max(30 * 86_400)
        .default(0),
    }),
    access: 'write',
    tier: 'admin',
    handler: async (input, ctx) => rotateApiKey(ctx.app, input.id, input.grace_seconds),
    http: { method: 'POST', path: '/v1/keys/:id/rotate' },
  }),
  'keys.revoke': defineOp({
    summary: 'Revoke a key at once (and every session token exchanged from it)',
    input: keyId,
    access: 'write',
    tier: 'admin',
    handler: async (input, ctx) => revokeApiKey(ctx.app, input.id),
    http: { method: 'DELETE', path: '/v1/keys/:id' },
  }),
  'keys.validate': defineOp({
    summary: 'Check whether an API key secret is valid (constant-time); returns its metadata or valid=false',
    input: z.object({ secret: z.string().max(200) }),
    access: 'read',
    tier: 'admin',
    handler: async (input, ctx) => {
      const key = await validateApiKey(ctx.app, input.secret);
      return key === null ? { valid: false as const } : { valid: true as const, key };
    },
    http: { method: 'POST', path: '/v1/keys/validate' },
  }),
  'auth.exchange': defineOp({
    summary: 'Exchange an API key for a short-lived session JWT (claims in docs/api.md)',
    input: z.object({ api_key: z.string().max(200) }),
    access: 'write',
    tier: 'public',
    handler: async (input, ctx) => {
      const key = await validateApiKey(ctx.app, input.api_key);
      if (key === null) throw new AppError('UNAUTHENTICATED', 'Invalid, revoked or expired API key');
      const { token, expires_in } = await issueSessionJwt(ctx.app, {
        sub: key.owner_user_id ?? key.id,
        tier: key.tier,
        scopes: key.scopes,
        origin: key.id,
        amr: 'apikey',
      });
      return { access_token: token, token_type: 'Bearer' as const, expires_in };
    },
    http: { method: 'POST', path: '/v1/auth/token' },
  }),
} as const;
