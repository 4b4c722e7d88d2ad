import { z } from 'zod';
import type { App } from '../../app.ts';
import { jsonColumn } from '../json-column.ts';
import { type Cadence, cadenceSchema, defaultCadences } from './cadence.ts';
import { type FrameworkId, frameworkIds } from './types.ts';

export type EffectiveCadence = { readonly framework: FrameworkId; readonly cadence: Cadence; readonly source: 'default' | 'project' };

const cadenceRow = z.object({ framework: z.string(), cadence: jsonColumn(z.unknown()) });

/** The cadence each framework uses for a project: the project's own setting, else the default. */
export const projectCadences = async (app: App, projectId: string): Promise<Record<FrameworkId, EffectiveCadence>> => {
  const rows = await app.database.all(cadenceRow, 'SELECT framework, cadence FROM clause_cadences WHERE project_id = ?', [projectId]);
  // A stored cadence the current schema no longer accepts falls back to the default rather than failing the map.
  const own = new Map(rows.map((row) => [row.framework, cadenceSchema.safeParse(row.cadence)] as const));
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
export const setProjectCadence = async (
  app: App,
  projectId: string,
  framework: FrameworkId,
  cadence: Cadence | null,
  actor: string,
): Promise<void> => {
  if (cadence === null) {
    await app.database.run('DELETE FROM clause_cadences WHERE project_id = ? AND framework = ?', [projectId, framework]);
    return;
  }
  await app.database.run(
    `INSERT INTO clause_cadences (project_id, framework, cadence, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (project_id, framework) DO UPDATE SET cadence = excluded.cadence, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [projectId, framework, JSON.stringify(cadence), app.now().toISOString(), actor],
  );
};
