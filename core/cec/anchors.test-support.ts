import type { App } from '../app.ts';
import { hashWithCanonicalPayload } from '../audit/chain.ts';
import { evidenceRow } from '../audit/store.ts';

/**
 * The insider's rewrite, done on the real database: drop one gate evaluation, renumber and re-hash every later
 * record so the chain links again, and move the head. Anchors stay where they were.
 */
export const dropAndRelink = async (app: App, projectId: string, dropSeq: number): Promise<void> => {
  const kept = (await app.database.all(evidenceRow, 'SELECT * FROM audit_records WHERE project_id = ? ORDER BY seq', [projectId])).filter(
    (row) => row.seq !== dropSeq,
  );
  let prev = '0'.repeat(64);
  const relinked = kept.map((row, i) => {
    const base = { ...row, seq: i + 1, prev_hash: prev };
    const hash = hashWithCanonicalPayload(base, row.payload);
    prev = hash;
    return { ...base, hash };
  });
  await app.database.transaction(async (tx) => {
    await tx.run('DELETE FROM audit_records WHERE project_id = ?', [projectId]);
    for (const row of relinked) {
      await tx.run(
        'INSERT INTO audit_records (seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [row.seq, row.record_id, projectId, row.schema_key, row.timestamp, row.recorded_at, row.payload, row.prev_hash, row.hash],
      );
    }
    await tx.run('UPDATE audit_chain_heads SET head_seq = ?, head_hash = ? WHERE project_id = ?', [relinked.length, prev, projectId]);
  });
};
