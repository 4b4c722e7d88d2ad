import type { App } from '../../app.ts';
import { type Cadence, cadenceSchema, defaultCadences } from './cadence.ts';
import { type FrameworkId, frameworkIds } from './types.ts';

export type EffectiveCadence = { readonly framework: FrameworkId; readonly cadence: Cadence; readonly source: 'default' | 'project' };

/** The cadence each framework uses for a project: the project's own setting, else the default. */
export const projectCadences = (app: App, projectId: string): Record<FrameworkId, EffectiveCadence> => {
  const rows = app.db
    .prepare<[string], { framework: string; cadence: string }>('SELECT framework, cadence FROM clause_cadences WHERE project_id = ?')
    .all(projectId);
  const own = new Map(rows.map((row) => [row.framework, cadenceSchema.safeParse(JSON.parse(row.cadence))] as const));
  return Object.fromEntries(
    frameworkIds.map((framework) => {
      const parsed = own.get(framework);
      return [
        framework,
        parsed?.success === true
          ? { framework, cadence: parsed.data, source: 'project' as const }
          : { framework, cadence: defaultCadences[framework], source: 'default' as const },
      ];
    }),
  ) as Record<FrameworkId, EffectiveCadence>;
};

/** Just the cadences, as the rule takes them. */
export const cadencesOf = (effective: Record<FrameworkId, EffectiveCadence>): Record<FrameworkId, Cadence> =>
  Object.fromEntries(frameworkIds.map((id) => [id, effective[id].cadence])) as Record<FrameworkId, Cadence>;

/** Stores a project's cadence for a framework, or removes it (back to the default) when `cadence` is null. */
export const setProjectCadence = (app: App, projectId: string, framework: FrameworkId, cadence: Cadence | null, actor: string): void => {
  if (cadence === null) {
    app.db.prepare('DELETE FROM clause_cadences WHERE project_id = ? AND framework = ?').run(projectId, framework);
    return;
  }
  app.db
    .prepare(
      `INSERT INTO clause_cadences (project_id, framework, cadence, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (project_id, framework) DO UPDATE SET cadence = excluded.cadence, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    )
    .run(projectId, framework, JSON.stringify(cadence), app.now().toISOString(), actor);
};
