import { z } from 'zod';
import { projectIdSchema } from '../../audit/input.ts';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { cadenceSchema, describeCadence } from './cadence.ts';
import { projectCadences, setProjectCadence } from './cadence-store.ts';
import { frameworkClauses, frameworkEdition } from './catalog.ts';
import { projectClauseMap } from './clause-map.ts';
import { frameworkDisplayName, resolveFramework } from './resolve.ts';
import { type ClauseMapEntry, type ClauseSatisfaction, type FrameworkId, frameworkIds } from './types.ts';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
/** Framework values as users give them: ids, display names or aliases (resolved by resolveFramework). */
const frameworkValue = z.string().min(1).max(100);

const summarise = (entries: readonly ClauseMapEntry[], framework: FrameworkId) => {
  const leaves = entries.filter((entry) => entry.framework === framework && entry.level === 'clause');
  const tally = (status: ClauseSatisfaction) => leaves.filter((entry) => entry.status === status).length;
  return {
    framework,
    name: frameworkDisplayName(framework),
    clauses: leaves.length,
    SATISFIED: tally('SATISFIED'),
    PARTIAL: tally('PARTIAL'),
    GAP: tally('GAP'),
  };
};

/** Operations of the Frameworks screen: the five frameworks, their clauses and a project's clause map. */
export const clauseOps = {
  'frameworks.list': defineOp({
    summary: 'The five supported frameworks with their edition and clause counts (mapped and excluded)',
    input: z.object({}),
    access: 'read',
    tier: 'free',
    handler: async () => ({
      frameworks: frameworkIds.map((id) => {
        const clauses = frameworkClauses(id);
        const mapped = clauses.filter((c) => c.mappings.length > 0);
        return {
          id,
          name: frameworkDisplayName(id),
          ...frameworkEdition(id),
          clause_count: clauses.length,
          mapped_count: mapped.length,
          excluded_count: clauses.length - mapped.length,
        };
      }),
    }),
  }),
  'frameworks.clauses': defineOp({
    summary: "A framework's clauses with their evidence mapping, rationale and source, or why they are excluded",
    input: z.object({ framework: frameworkValue }),
    access: 'read',
    tier: 'free',
    handler: async (input) => {
      const framework = resolveFramework(input.framework);
      return { framework, name: frameworkDisplayName(framework), ...frameworkEdition(framework), clauses: frameworkClauses(framework) };
    },
    http: { method: 'GET', path: '/v1/frameworks/:framework/clauses', errorField: 'detail' },
  }),
  'frameworks.clauseMap': defineOp({
    summary: "A project's clause map for a date range: SATISFIED / PARTIAL / GAP per clause with evidence drill-down",
    input: z.object({
      project_id: projectIdSchema,
      from: day.optional(),
      to: day.optional(),
      frameworks: z.array(frameworkValue).max(20).optional(),
    }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
        throw new AppError('VALIDATION', 'from must not be after to');
      }
      const frameworks =
        input.frameworks === undefined || input.frameworks.length === 0
          ? [...frameworkIds]
          : [...new Set(input.frameworks.map(resolveFramework))];
      const map = await projectClauseMap(ctx.app, {
        projectId: input.project_id,
        frameworks,
        ...(input.from === undefined ? {} : { from: input.from }),
        ...(input.to === undefined ? {} : { to: input.to }),
      });
      return {
        project_id: input.project_id,
        from: input.from ?? null,
        to: input.to ?? null,
        frameworks,
        rule_version: map.rule_version,
        as_of: map.window.as_of,
        period_start: map.window.period_start,
        cadences: frameworks.map((framework) => ({
          framework,
          ...map.cadences[framework],
          text: describeCadence(map.cadences[framework]),
        })),
        counts: map.record_counts,
        evidence_summary: map.evidence_summary,
        summary: frameworks.map((framework) => summarise(map.entries, framework)),
        entries: map.entries,
      };
    },
  }),
  'frameworks.cadences': defineOp({
    summary: "A project's coverage cadence per framework (its own setting or the default) used by the clause rule",
    input: z.object({ project_id: projectIdSchema }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => ({
      project_id: input.project_id,
      cadences: Object.values(await projectCadences(ctx.app, input.project_id)).map((item) => ({
        ...item,
        text: describeCadence(item.cadence),
      })),
    }),
  }),
  'frameworks.setCadence': defineOp({
    summary: "Set a project's coverage cadence for a framework (monthly, max_age days, any); null restores the default",
    input: z.object({ project_id: projectIdSchema, framework: frameworkValue, cadence: cadenceSchema.nullable() }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      const framework = resolveFramework(input.framework);
      await setProjectCadence(
        ctx.app,
        input.project_id,
        framework,
        input.cadence,
        `${ctx.actor.kind}:${ctx.actor.subject ?? ctx.actor.id}`,
      );
      return (await projectCadences(ctx.app, input.project_id))[framework];
    },
  }),
} as const;
