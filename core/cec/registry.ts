import { pathToFileURL } from 'node:url';
import type { App } from '../app.ts';
import type { SchemaKey } from '../audit/types.ts';
import type { BuiltBundle } from './build.ts';
import type { ObjectRef } from './storage/s3-config.ts';
import type { StoredObject } from './storage/s3-bundles.ts';
import { s3Url } from './storage/s3-config.ts';
import type { BundleResult, DateRange } from './types.ts';

/** How long a download URL lives: 24 h by default (spec section 8), the bundleUrlValidityHours setting. */
export const downloadValidityMs = (app: App): number => app.settings.get().bundleUrlValidityHours * 60 * 60 * 1000;

type Row = {
  bundle_id: string;
  project_id: string;
  org_id: string | null;
  date_from: string;
  date_to: string;
  zip_path: string;
  expires_at: string;
  hmac_manifest: string;
  record_counts: string;
  frameworks_covered: string;
  generated_at: string;
  size_bytes: number;
  object_bucket: string | null;
  object_key: string | null;
  sha256: string | null;
};

/** A registry entry: the spec's BundleResult plus what the list screen shows. */
export type BundleEntry = BundleResult & {
  readonly project_id: string;
  readonly org_id: string | null;
  readonly date_range: DateRange;
  readonly size_bytes: number;
  /** Where the bundle is kept when the BYOS provider stored it; null for a local file. */
  readonly object: ObjectRef | null;
  /** SHA-256 of the ZIP as uploaded (recorded for stored bundles). */
  readonly sha256: string | null;
};

const objectOf = (row: Row): ObjectRef | null =>
  row.object_bucket === null || row.object_key === null ? null : { bucket: row.object_bucket, key: row.object_key };

/** A stored bundle's download_url here is its s3:// URL; the client presigns it (storage/stored-bundles.ts). */
const toEntry = (row: Row): BundleEntry => ({
  bundle_id: row.bundle_id,
  zip_path: row.zip_path,
  download_url: objectOf(row) === null ? pathToFileURL(row.zip_path).href : s3Url(objectOf(row) as ObjectRef),
  expires_at: row.expires_at,
  hmac_manifest: row.hmac_manifest,
  record_counts: JSON.parse(row.record_counts) as Record<SchemaKey, number>,
  frameworks_covered: JSON.parse(row.frameworks_covered) as string[],
  generated_at: row.generated_at,
  project_id: row.project_id,
  org_id: row.org_id,
  date_range: [row.date_from, row.date_to],
  size_bytes: row.size_bytes,
  object: objectOf(row),
  sha256: row.sha256,
});

/** Only the spec's BundleResult fields, in spec order. */
export const toBundleResult = (entry: BundleEntry): BundleResult => ({
  bundle_id: entry.bundle_id,
  zip_path: entry.zip_path,
  download_url: entry.download_url,
  expires_at: entry.expires_at,
  hmac_manifest: entry.hmac_manifest,
  record_counts: entry.record_counts,
  frameworks_covered: entry.frameworks_covered,
  generated_at: entry.generated_at,
});

/**
 * Registers a freshly written bundle (`stored`: where the BYOS provider put it). A rebuild with the same file
 * name replaced the ZIP on disk, so entries that pointed at that path are superseded in the same transaction.
 */
export const registerBundle = (
  app: App,
  built: BuiltBundle,
  meta: { projectId: string; orgId: string | null; range: DateRange },
  stored: StoredObject | null = null,
): BundleEntry => {
  const expiresAt = new Date(new Date(built.generated_at).getTime() + downloadValidityMs(app)).toISOString();
  app.db.transaction(() => {
    app.db.prepare('DELETE FROM cec_bundles WHERE zip_path = ?').run(built.zip_path);
    app.db
      .prepare(
        `INSERT INTO cec_bundles (bundle_id, project_id, org_id, date_from, date_to, zip_path, expires_at, hmac_manifest,
           record_counts, frameworks_covered, generated_at, size_bytes, object_bucket, object_key, sha256)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        built.bundle_id,
        meta.projectId,
        meta.orgId,
        meta.range[0],
        meta.range[1],
        built.zip_path,
        expiresAt,
        built.hmac_manifest,
        JSON.stringify(built.record_counts),
        JSON.stringify(built.frameworks_covered),
        built.generated_at,
        built.size_bytes,
        stored?.bucket ?? null,
        stored?.key ?? null,
        stored?.sha256 ?? null,
      );
  })();
  return getEntry(app, built.bundle_id) as BundleEntry;
};

export const getEntry = (app: App, bundleId: string): BundleEntry | null => {
  const row = app.db.prepare('SELECT * FROM cec_bundles WHERE bundle_id = ?').get(bundleId) as Row | undefined;
  return row === undefined ? null : toEntry(row);
};

/** Newest first, paged. */
export const listEntries = (
  app: App,
  options: { limit: number; offset: number; projectId?: string },
): { items: BundleEntry[]; total: number } => {
  const where = options.projectId === undefined ? '' : 'WHERE project_id = @projectId';
  const params = { projectId: options.projectId ?? null, limit: options.limit, offset: options.offset };
  const rows = app.db
    .prepare(`SELECT * FROM cec_bundles ${where} ORDER BY generated_at DESC, bundle_id DESC LIMIT @limit OFFSET @offset`)
    .all(params) as Row[];
  const { n } = app.db.prepare(`SELECT COUNT(*) AS n FROM cec_bundles ${where}`).get(params) as { n: number };
  return { items: rows.map(toEntry), total: n };
};

export const setExpiry = (app: App, bundleId: string, expiresAt: string): void => {
  app.db.prepare('UPDATE cec_bundles SET expires_at = ? WHERE bundle_id = ?').run(expiresAt, bundleId);
};

export const registryStats = (app: App): { count: number; last: string | null } => {
  const row = app.db.prepare('SELECT COUNT(*) AS n, MAX(generated_at) AS last FROM cec_bundles').get() as {
    n: number;
    last: string | null;
  };
  return { count: row.n, last: row.last };
};
