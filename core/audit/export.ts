import type { App } from '../app.ts';
import { iterateEvidence } from './store.ts';
import type { SchemaKey } from './types.ts';

/**
 * A project's records as NDJSON lines (full records: seq, hashes, payload), in chain order, filtered like
 * iterateEvidence. Lines are produced lazily, so a large export streams in bounded memory. Re-importing the
 * lines is not a restore: import takes inputs and builds a new chain (seq and hashes are the store's).
 */
export function* exportNdjson(app: App, q: { projectId: string; from?: string; to?: string; schemaKey?: SchemaKey }): Generator<string> {
  for (const record of iterateEvidence(app, q)) yield `${JSON.stringify(record)}\n`;
}
