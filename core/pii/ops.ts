import { z } from 'zod';
import { AppError } from '../errors.ts';
import { defineOp } from '../ops/define.ts';
import { piiCatalog } from './default-engine.ts';
import { phoneRegionsSchema } from './phone-regions.ts';
import { scanText } from './scan-service.ts';
import type { AdHocRecognizer, DenyListEntry, ScanResult } from './types.ts';

const entityName = z.string().regex(/^[A-Z][A-Z0-9_]{0,63}$/, 'entity types are UPPER_SNAKE, e.g. EMAIL_ADDRESS');
const score = z.number().min(0).max(1);

const adHocRecognizer = z.object({
  name: z.string().min(1).max(100),
  supported_entity: entityName,
  supported_language: z.string().min(2).max(10).optional(),
  patterns: z
    .array(z.object({ name: z.string().min(1).max(100), regex: z.string().min(1).max(2000), score }))
    .max(50)
    .optional(),
  context: z.array(z.string().min(1).max(100)).max(100).optional(),
  deny_list: z.array(z.string().min(1).max(500)).max(1000).optional(),
  deny_list_score: score.optional(),
});

const denyListEntry = z.object({
  entity: entityName,
  values: z.array(z.string().min(1).max(500)).min(1).max(1000),
  match: z.enum(['exact', 'regex']).optional(),
  score: score.optional(),
});

/** Request of `POST /v1/scan/pii` (spec 2.2, plus Presidio's analyzer options in Presidio's snake_case names). */
export const scanInput = z.object({
  /** Checked in the handler so that absent and empty both read `missing_field: text`, as the spec's table says. */
  text: z.unknown().optional(),
  language: z.string().min(1).max(20).default('en'),
  entities: z.array(entityName).max(100).optional(),
  score_threshold: score.optional(),
  per_entity_thresholds: z.record(entityName, score).optional(),
  return_decision_process: z.boolean().default(false),
  allow_list: z.array(z.string().min(1).max(1000)).max(1000).optional(),
  allow_list_match: z.enum(['exact', 'regex']).default('exact'),
  deny_list: z.array(denyListEntry).max(100).optional(),
  context: z.array(z.string().min(1).max(100)).max(100).optional(),
  ad_hoc_recognizers: z.array(adHocRecognizer).max(20).optional(),
  /** Regions for PHONE_NUMBER's national numbers (default: the SVC_PII_PHONE_REGIONS setting). */
  phone_regions: phoneRegionsSchema.optional(),
  project_id: z.string().trim().min(1).max(200).default('default'),
});

const requireText = (text: unknown): string => {
  if (text === undefined || text === null || text === '') throw new AppError('VALIDATION', 'missing_field: text');
  if (typeof text !== 'string') throw new AppError('VALIDATION', 'invalid_field: text must be a string');
  return text;
};

/** Operations of the PII domain. */
export const piiOps = {
  'pii.scan': defineOp({
    summary:
      'Scan text for PII; returns the entities found and the redacted text (spec 2.2). Action from settings.piiAction; large texts report progress',
    input: scanInput,
    access: 'write',
    tier: 'api',
    handler: async (input, ctx): Promise<ScanResult> => {
      const text = requireText(input.text);
      const threshold = input.score_threshold ?? ctx.app.settings.get().piiScoreThreshold;
      const outcome = await scanText(ctx.app, {
        text,
        language: input.language,
        projectId: input.project_id,
        source: 'pii.scan',
        signal: ctx.signal,
        onProgress: ctx.progress,
        scoreThreshold: threshold,
        returnExplanation: input.return_decision_process,
        allowListMatch: input.allow_list_match,
        ...(input.entities ? { entities: input.entities } : {}),
        ...(input.per_entity_thresholds ? { perEntityThresholds: input.per_entity_thresholds } : {}),
        ...(input.allow_list ? { allowList: input.allow_list } : {}),
        ...(input.context ? { context: input.context } : {}),
        ...(input.phone_regions ? { phoneRegions: input.phone_regions } : {}),
        ...(input.deny_list ? { denyList: input.deny_list as DenyListEntry[] } : {}),
        ...(input.ad_hoc_recognizers ? { adHocRecognizers: input.ad_hoc_recognizers as AdHocRecognizer[] } : {}),
      });
      const { detected, entities, redacted_text, normalized } = outcome.result;
      return { detected, entities, redacted_text, normalized };
    },
    http: { method: 'POST', path: '/v1/scan/pii', status: 200, errorField: 'error', validationStatus: 400 },
  }),
  'pii.entityTypes': defineOp({
    summary: 'Languages the PII engine supports and the entity types it can scan for in one of them',
    input: z.object({ language: z.string().min(1).max(20).default('en') }),
    access: 'read',
    tier: 'free',
    handler: async (input, ctx) => {
      const engine = piiCatalog(ctx.app);
      if (!engine.languages().includes(input.language)) {
        throw new AppError('VALIDATION', `unsupported language: ${input.language}`);
      }
      return {
        languages: engine.languages(),
        entity_types: engine.entityTypes(input.language),
        default_entity_types: engine.defaultEntityTypes(input.language),
      };
    },
  }),
} as const;
