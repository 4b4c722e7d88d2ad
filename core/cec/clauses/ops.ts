import { z } from 'zod';
import { projectIdSchema } from '../../audit/input.ts';
import { countEvidence } from '../../audit/store.ts';
import { AppError } from '../../errors.ts';
import { defineOp } from '../../ops/define.ts';
import { frameworkClauses, frameworkEdition } from './catalog.ts';
import { computeClauseMap } from './compute.ts';
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
      const counts = countEvidence(ctx.app, {
        projectId: input.project_id,
        ...(input.from === undefined ? {} : { from: input.from }),
        ...(input.to === undefined ? {} : { to: input.to }),
      });
      const entries = computeClauseMap(frameworks, counts);
      return {
        project_id: input.project_id,
        from: input.from ?? null,
        to: input.to ?? null,
        frameworks,
        counts,
        summary: frameworks.map((framework) => summarise(entries, framework)),
        entries,
      };
    },
  }),
} as const;
