import { z } from 'zod';
import type { App } from '../app.ts';
import { appendEvidence } from '../audit/store.ts';
import { AppError } from '../errors.ts';
import type { Queryable } from '../store/database.ts';
import { generateSample, sampleProjectId } from './sample-data.ts';

const sampleRow = z.object({ project_id: z.string(), records: z.number().int(), created_at: z.string() });
export type SampleInfo = z.infer<typeof sampleRow>;

const oneRow = z.object({ one: z.number() });
const sampleOf = (db: Queryable, projectId: string) =>
  db.one(sampleRow, 'SELECT project_id, records, created_at FROM posture_samples WHERE project_id = ?', [projectId]);

/** Projects created as sample data, newest first. */
export const listSamples = (app: App): Promise<SampleInfo[]> =>
  app.database.all(sampleRow, 'SELECT project_id, records, created_at FROM posture_samples ORDER BY created_at DESC');

/**
 * Imports the generated sample into its own project (its own hash chain) and marks it as sample data. Refuses
 * when the project id already holds evidence, so real records are never mixed with generated ones.
 *
 * The registration is written first, in its own transaction with the check: the chain append takes its own
 * (serialised per project), which cannot nest in ours. Registered first, a crash before the append leaves a
 * sample that `removeSample` can still drop; appended first, it would leave generated records that look real.
 * Of two concurrent loads (two instances), only the one that registered appends.
 */
export const loadSample = async (app: App): Promise<SampleInfo> => {
  const records = generateSample(app.now());
  const info = { project_id: sampleProjectId, records: records.length, created_at: app.now().toISOString() };
  const registered = await app.database.transaction(async (tx): Promise<SampleInfo | null> => {
    const existing = await sampleOf(tx, sampleProjectId);
    if (existing !== undefined) return existing;
    if (await tx.one(oneRow, 'SELECT 1 AS one FROM audit_chain_heads WHERE project_id = ?', [sampleProjectId])) {
      throw new AppError('CONFLICT', `Project ${sampleProjectId} already holds evidence that is not sample data`);
    }
    const sql = 'INSERT INTO posture_samples (project_id, created_at, records) VALUES (?, ?, ?) ON CONFLICT (project_id) DO NOTHING';
    // No row inserted: another instance registered it since our read; theirs is the sample.
    if ((await tx.run(sql, [info.project_id, info.created_at, info.records])) === 0) return (await sampleOf(tx, sampleProjectId)) ?? null;
    return null;
  });
  if (registered !== null) return registered;
  try {
    await appendEvidence(app, records);
  } catch (error) {
    await app.database.run('DELETE FROM posture_samples WHERE project_id = ?', [sampleProjectId]);
    throw error;
  }
  return info;
};

/**
 * Drops a sample project entirely: every record, its chain head, anchors and cadences, in one transaction. The
 * hash chain is per project, so removing a whole chain leaves every other chain intact and verifiable; records
 * of a real project are never deleted (only ids registered as samples qualify). Bundles already built from the
 * sample stay on disk: they are self-contained.
 */
export const removeSample = async (app: App, projectId: string): Promise<{ project_id: string; removed_records: number }> => {
  const removed = await app.database.transaction(async (tx) => {
    if ((await tx.run('DELETE FROM posture_samples WHERE project_id = ?', [projectId])) === 0) {
      throw new AppError('NOT_FOUND', `${projectId.slice(0, 128)} is not a sample project; only sample data can be removed`);
    }
    const records = await tx.run('DELETE FROM audit_records WHERE project_id = ?', [projectId]);
    await tx.run('DELETE FROM audit_chain_heads WHERE project_id = ?', [projectId]);
    await tx.run('DELETE FROM audit_anchors WHERE project_id = ?', [projectId]);
    await tx.run('DELETE FROM anchor_claims WHERE project_id = ?', [projectId]);
    await tx.run('DELETE FROM clause_cadences WHERE project_id = ?', [projectId]);
    return records;
  });
  return { project_id: projectId, removed_records: removed };
};
