import { z } from 'zod';
import type { App } from '../../app.ts';
import { computeRecordHash, GENESIS_HASH, jcs } from '../../audit/chain.ts';
import type { EvidenceRecord } from '../../audit/types.ts';

const headRow = z.object({ head_seq: z.number(), head_hash: z.string() });

/**
 * Appends chained records through `app.database`, as the evidence store does (seq, prev_hash, contract-A hash,
 * chain head), for the clause tests on both back ends. Needed only while the evidence chain's own appendEvidence
 * still writes to the SQLite connection (app.db), which is not the PostgreSQL database of a test app; once the
 * chain has moved, these tests can call appendEvidence instead.
 */
export const appendOnDatabase = async (
  app: App,
  inputs: readonly Pick<EvidenceRecord, 'project_id' | 'schema_key' | 'timestamp' | 'record_id' | 'payload'>[],
): Promise<{ record_id: string; seq: number }[]> => {
  const recordedAt = app.now().toISOString();
  return app.database.transaction(async (tx) => {
    const written: { record_id: string; seq: number }[] = [];
    for (const input of inputs) {
      const head = await tx.one(headRow, 'SELECT head_seq, head_hash FROM audit_chain_heads WHERE project_id = ?', [input.project_id]);
      const record = {
        seq: (head?.head_seq ?? 0) + 1,
        record_id: input.record_id,
        project_id: input.project_id,
        schema_key: input.schema_key,
        timestamp: input.timestamp,
        recorded_at: recordedAt,
        payload: input.payload,
        prev_hash: head?.head_hash ?? GENESIS_HASH,
      };
      const hash = computeRecordHash(record);
      await tx.run(
        `INSERT INTO audit_records (project_id, seq, record_id, schema_key, timestamp, recorded_at, payload, prev_hash, hash)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          record.project_id,
          record.seq,
          record.record_id,
          record.schema_key,
          record.timestamp,
          recordedAt,
          jcs(record.payload),
          record.prev_hash,
          hash,
        ],
      );
      await tx.run(
        `INSERT INTO audit_chain_heads (project_id, head_seq, head_hash, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (project_id) DO UPDATE SET head_seq = excluded.head_seq, head_hash = excluded.head_hash, updated_at = excluded.updated_at`,
        [record.project_id, record.seq, hash, recordedAt],
      );
      written.push({ record_id: record.record_id, seq: record.seq });
    }
    return written;
  });
};
