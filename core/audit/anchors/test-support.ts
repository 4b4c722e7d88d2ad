import type { App } from '../../app.ts';
import { examplePayloads } from '../examples.ts';
import { appendEvidence } from '../store.ts';

/**
 * Appends `count` records (count >= 1) to a project's chain through the evidence store, as any client does, for
 * the anchoring tests on both back ends. Returns the new head.
 */
export const seedChain = async (app: App, projectId: string, count: number): Promise<{ head_seq: number; head_hash: string }> => {
  const inputs = Array.from({ length: count }, () => ({
    project_id: projectId,
    schema_key: 'score_records' as const,
    payload: examplePayloads.score_records,
  }));
  const last = (await appendEvidence(app, inputs)).at(-1);
  if (last === undefined) throw new RangeError('seedChain appends at least one record');
  return { head_seq: last.seq, head_hash: last.hash };
};
