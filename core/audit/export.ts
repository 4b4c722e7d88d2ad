import type { App } from '../app.ts';
import { rowToRecord } from './store.ts';
import { type EvidenceFilter, evidenceRows } from './evidence-rows.ts';

/**
 * A project's records as NDJSON lines (full records: seq, hashes, payload), in chain order, filtered like
 * evidenceRows. Lines are produced lazily, so a large export streams in bounded memory. Re-importing the
 * lines is not a restore: import takes inputs and builds a new chain (seq and hashes are the store's).
 */
export async function* exportNdjson(app: App, q: EvidenceFilter): AsyncGenerator<string> {
  // One read snapshot for the whole export: pages read while others append describe one state of the chain.
  const snapshot = await app.database.snapshot();
  try {
    for await (const row of evidenceRows(snapshot, q)) yield `${JSON.stringify(rowToRecord(row))}\n`;
  } finally {
    await snapshot.close();
  }
}
