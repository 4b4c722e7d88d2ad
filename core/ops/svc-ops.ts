import { z } from 'zod';
import { secretNames, settingsEnv, settingsPatchSchema, settingsSchema } from '../config/settings-schema.ts';
import { piiStatus } from '../pii/status.ts';
import { version } from '../version.ts';
import { defineOp } from './define.ts';

const settingsJsonSchema = z.toJSONSchema(settingsSchema) as {
  properties: Record<string, { type?: string; enum?: string[]; anyOf?: unknown[]; maximum?: number; minimum?: number }>;
};

export const svcOps = {
  'svc.status': defineOp({
    summary: 'Service and scan-engine health (spec 2.3); needs no credential',
    input: z.object({}),
    access: 'read',
    tier: 'public',
    handler: async (_input, ctx) => ({ status: 'ok' as const, version, sf_pii: await piiStatus(ctx.app) }),
    http: { method: 'GET', path: '/v1/svc/status' },
  }),
  'settings.get': defineOp({
    summary: 'Current settings, which ones the environment overrides, and which secrets are set (never their values)',
    input: z.object({}),
    access: 'read',
    tier: 'admin',
    handler: async (_input, ctx) => ({
      ...ctx.app.settings.view(),
      /** JSON Schema of the settings, so the Settings screen derives its form instead of restating it. */
      schema: settingsJsonSchema,
      env: settingsEnv,
    }),
  }),
  'settings.update': defineOp({
    summary: 'Change settings; secrets are write-only (a value sets, null clears)',
    input: z.object({
      values: settingsPatchSchema.default({}),
      secrets: z
        .partialRecord(z.enum(secretNames).exclude(['sessionKey']), z.string().min(1).max(4096).nullable())
        .default({}),
    }),
    access: 'write',
    tier: 'admin',
    handler: async (input, ctx) => {
      for (const [name, value] of Object.entries(input.secrets)) {
        if (value !== undefined) ctx.app.settings.setSecret(name as (typeof secretNames)[number], value);
      }
      return ctx.app.settings.update(input.values);
    },
  }),
} as const;
