import { z } from 'zod';
import type { App } from '../../app.ts';
import type { Queryable } from '../../store/database.ts';
import { GENESIS_HASH, hashWithCanonicalPayload, jcs } from '../chain.ts';

/**
 * Appends `count` hash-linked records to a project's chain straight through `app.database` SQL, as the chain
 * store does (records, then the head). Anchoring tests run on both back ends; the chain store still writes the
 * SQLite connection until it moves (issue 15), so they seed its tables here. Returns the new head.
 */
export const seedChain = async (app: App, projectId: string, count: number): Promise<{ head_seq: number; head_hash: string }> => {
  const recordedAt = app.now().toISOString();
  return app.database.transaction(async (tx: Queryable) => {
    const head = await tx.one(
      z.object({ head_seq: z.number(), head_hash: z.string() }),
      'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?',
      [projectId],
    );
    let seq = head?.head_seq ?? 0;
    let prev = head?.head_hash ?? GENESIS_HASH;
    for (let i = 0; i < count; i += 1) {
      seq += 1;
      const payload = jcs({ model: 'credit', n: seq });
      const record = {
        seq,
        record_id: `${projectId}-${seq}`,
        project_id: projectId,
        schema_key: 'score_records' as const,
        timestamp: recordedAt,
        recorded_at: recordedAt,
        prev_hash: prev,
      };
      const hash = hashWithCanonicalPayload(record, payload);
      await tx.run(
        'INSERT INTO audit_records (seq, record_id, project_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
        [seq, record.record_id, projectId, record.schema_key, recordedAt, recordedAt, payload, prev, hash],
      );
      prev = hash;
    }
    await tx.run(
      `INSERT INTO audit_chain_heads (project_id, head_seq, head_hash, updated_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (project_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at`,
      [projectId, seq, prev, recordedAt],
    );
    return { head_seq: seq, head_hash: prev };
  });
};
