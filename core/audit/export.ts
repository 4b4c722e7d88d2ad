import type { App } from '../app.ts';
import { openSnapshot } from '../store/snapshot.ts';
import { auditStatementsFor, iterateEvidence } from './store.ts';
import type { SchemaKey } from './types.ts';

/**
 * A project's records as NDJSON lines (full records: seq, hashes, payload), in chain order, filtered like
 * iterateEvidence. Lines are produced lazily, so a large export streams in bounded memory. Re-importing the
 * lines is not a restore: import takes inputs and builds a new chain (seq and hashes are the store's).
 */
export function* exportNdjson(app: App, q: { projectId: string; from?: string; to?: string; schemaKey?: SchemaKey }): Generator<string> {
  // One read snapshot for the whole export: pages read while others append describe one state of the chain.
  const snapshot = openSnapshot(app);
  try {
    for (const record of iterateEvidence(app, q, auditStatementsFor(snapshot.db))) yield `${JSON.stringify(record)}\n`;
  } finally {
    snapshot.close();
  }
}
