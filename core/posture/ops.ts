import { z } from 'zod';
import { projectIdSchema } from '../audit/input.ts';
import { listProjects } from '../audit/query.ts';
import { defineOp } from '../ops/define.ts';
import { projectOverview } from './overview.ts';
import { listSamples, loadSample, removeSample } from './sample.ts';

/** Operations of the Overview screen: a project's posture at a glance, and the removable sample project. */
export const postureOps = {
  'posture.overview': defineOp({
    summary: "A project's posture: evidence volume per month, chain head, coverage heatmap, recent bundles, alerts",
    input: z.object({ project_id: projectIdSchema.optional() }),
    access: 'read',
    tier: 'api',
    handler: async (input, ctx) => {
      const projects = (await listProjects(ctx.app)).map((project) => ({
        project_id: project.project_id,
        record_count: project.record_count,
      }));
      const samples = (await listSamples(ctx.app)).map((sample) => sample.project_id);
      const chosen = input.project_id ?? projects.find((p) => !samples.includes(p.project_id))?.project_id ?? projects[0]?.project_id;
      return {
        projects: projects.map((project) => ({ ...project, is_sample: samples.includes(project.project_id) })),
        overview: chosen === undefined ? null : await projectOverview(ctx.app, chosen),
      };
    },
    http: { method: 'GET', path: '/v1/posture/overview', errorField: 'error' },
  }),
  'posture.loadSample': defineOp({
    summary: 'Import the generated sample project (three models, six months, every schema key), marked as sample data',
    input: z.object({}),
    access: 'write',
    tier: 'api',
    handler: async (_input, ctx) => loadSample(ctx.app),
  }),
  'posture.removeSample': defineOp({
    summary: 'Drop a sample project entirely (its whole chain); refuses any project not created as sample data',
    input: z.object({ project_id: projectIdSchema }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => removeSample(ctx.app, input.project_id),
  }),
} as const;
