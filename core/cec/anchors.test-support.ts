import type { App } from '../app.ts';
import { hashWithCanonicalPayload } from '../audit/chain.ts';
import type { EvidenceRow } from '../audit/store.ts';

/**
 * The insider's rewrite, done on the real SQLite file: drop one gate evaluation, renumber and re-hash every
 * later record so the chain links again, and move the head. Anchors stay where they were.
 */
export const dropAndRelink = (app: App, projectId: string, dropSeq: number): void => {
  const rows = app.db
    .prepare<[string], EvidenceRow>('SELECT * FROM audit_records WHERE project_id = ? ORDER BY seq')
    .all(projectId)
    .filter((row) => row.seq !== dropSeq);
  app.db.transaction(() => {
    app.db.prepare('DELETE FROM audit_records WHERE project_id = ?').run(projectId);
    const insert = app.db.prepare(
      'INSERT INTO audit_records (seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    let prev = '0'.repeat(64);
    rows.forEach((row, i) => {
      const base = { ...row, seq: i + 1, prev_hash: prev };
      const hash = hashWithCanonicalPayload(base, row.payload);
      insert.run(base.seq, row.record_id, projectId, row.schema_key, row.timestamp, row.recorded_at, row.payload, prev, hash);
      prev = hash;
    });
    app.db.prepare('UPDATE audit_chain_heads SET head_seq = ?, head_hash = ? WHERE project_id = ?').run(rows.length, prev, projectId);
  })();
};
