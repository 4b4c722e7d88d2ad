import { z } from 'zod';
import { secretNames, settingsEnv, settingsPatchSchema, settingsSchema } from '../config/settings-schema.ts';
import type { SettingsView } from '../config/settings.ts';
import { settingsFormSchema } from '../contracts/settings-view.ts';
import { piiStatus } from '../pii/status.ts';
import { version } from '../version.ts';
import { defineOp } from './define.ts';

// Parsed, not cast: the Settings screen builds its form from this shape (core/contracts/settings-view.ts).
const settingsJsonSchema = settingsFormSchema.parse(z.toJSONSchema(settingsSchema));

/** The settings view plus their JSON Schema and env names, so the Settings screen derives its form. */
const describedSettings = (view: SettingsView) => ({ ...view, schema: settingsJsonSchema, env: settingsEnv });

export const svcOps = {
  'svc.status': defineOp({
    summary: 'Service and scan-engine health (spec 2.3); needs no credential',
    input: z.object({}),
    access: 'read',
    tier: 'public',
    handler: async (_input, ctx) => ({ status: 'ok' as const, version, sf_pii: await piiStatus(ctx.app) }),
    http: { method: 'GET', path: '/v1/svc/status' },
  }),
  'svc.ready': defineOp({
    summary: 'Readiness for a load balancer: 200 when this instance can reach its database, else 503; needs no credential',
    input: z.object({}),
    access: 'read',
    tier: 'public',
    // One round trip through the same pool the requests use: a lost database answers 503 (UNAVAILABLE) here too.
    handler: async (_input, ctx) => {
      await ctx.app.database.one(z.object({ ready: z.number() }), 'SELECT 1 AS ready');
      return { status: 'ok' as const, database: ctx.app.database.dialect };
    },
    http: { method: 'GET', path: '/v1/svc/ready' },
  }),
  'svc.ping': defineOp({
    summary: 'Authenticated no-op: checks a credential and measures dispatch overhead',
    input: z.object({}),
    access: 'read',
    tier: 'free',
    handler: async (_input, ctx) => ({ pong: true as const, tier: ctx.actor.tier }),
    http: { method: 'GET', path: '/v1/svc/ping' },
  }),
  'settings.get': defineOp({
    summary: 'Current settings, which ones the environment overrides, and which secrets are set (never their values)',
    input: z.object({}),
    access: 'read',
    tier: 'admin',
    handler: async (_input, ctx) => describedSettings(ctx.app.settings.view()),
  }),
  'settings.update': defineOp({
    summary: 'Change settings; secrets are write-only (a value sets, null clears)',
    input: z.object({
      values: settingsPatchSchema.default({}),
      secrets: z.partialRecord(z.enum(secretNames).exclude(['sessionKey']), z.string().min(1).max(4096).nullable()).default({}),
    }),
    access: 'write',
    tier: 'admin',
    handler: async (input, ctx) => {
      for (const [name, value] of Object.entries(input.secrets)) {
        if (value !== undefined) ctx.app.settings.setSecret(name as (typeof secretNames)[number], value);
      }
      return describedSettings(await ctx.app.settings.update(input.values));
    },
  }),
} as const;
