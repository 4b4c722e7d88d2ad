import type { App } from '../app.ts';
import { appendEvidence } from '../audit/store.ts';
import { AppError } from '../errors.ts';
import { generateSample, sampleProjectId } from './sample-data.ts';

export type SampleInfo = { readonly project_id: string; readonly records: number; readonly created_at: string };

/** Projects created as sample data, newest first. */
export const listSamples = (app: App): SampleInfo[] =>
  app.db.prepare<[], SampleInfo>('SELECT project_id, records, created_at FROM posture_samples ORDER BY created_at DESC').all();

/**
 * Imports the generated sample into its own project (its own hash chain) and marks it as sample data. Refuses
 * when the project id already holds evidence, so real records are never mixed with generated ones.
 */
export const loadSample = (app: App): SampleInfo => {
  const existing = listSamples(app).find((sample) => sample.project_id === sampleProjectId);
  if (existing !== undefined) return existing;
  const head = app.db.prepare('SELECT 1 FROM audit_chain_heads WHERE project_id = ?').get(sampleProjectId);
  if (head !== undefined) throw new AppError('CONFLICT', `Project ${sampleProjectId} already holds evidence that is not sample data`);
  const records = generateSample(app.now());
  const info = { project_id: sampleProjectId, records: records.length, created_at: app.now().toISOString() };
  app.db.transaction(() => {
    appendEvidence(app, records);
    app.db
      .prepare('INSERT INTO posture_samples (project_id, created_at, records) VALUES (?, ?, ?)')
      .run(info.project_id, info.created_at, info.records);
  })();
  return info;
};

/**
 * Drops a sample project entirely: every record, its chain head and its cadences, in one transaction. The hash
 * chain is per project, so removing a whole chain leaves every other chain intact and verifiable; records of a
 * real project are never deleted (only ids registered as samples qualify). Bundles already built from the sample
 * stay on disk: they are self-contained.
 */
export const removeSample = (app: App, projectId: string): { project_id: string; removed_records: number } => {
  if (!listSamples(app).some((sample) => sample.project_id === projectId)) {
    throw new AppError('NOT_FOUND', `${projectId.slice(0, 128)} is not a sample project; only sample data can be removed`);
  }
  let removed = 0;
  app.db
    .transaction(() => {
      removed = app.db.prepare('DELETE FROM audit_records WHERE project_id = ?').run(projectId).changes;
      app.db.prepare('DELETE FROM audit_chain_heads WHERE project_id = ?').run(projectId);
      app.db.prepare('DELETE FROM clause_cadences WHERE project_id = ?').run(projectId);
      app.db.prepare('DELETE FROM posture_samples WHERE project_id = ?').run(projectId);
    })
    .immediate();
  return { project_id: projectId, removed_records: removed };
};
