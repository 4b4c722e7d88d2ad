import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import type { App } from '../app.ts';
import { schemaKeys } from '../audit/types.ts';
import { AppError } from '../errors.ts';
import type { BuiltBundle } from './build.ts';
import type { ObjectRef } from './storage/s3-config.ts';
import type { StoredObject } from './storage/s3-bundles.ts';
import { jsonColumn } from './json-column.ts';
import { s3Url } from './storage/s3-config.ts';
import type { BundleResult, DateRange } from './types.ts';
import { boundLimit } from '../store/sql-text.ts';

/** How long a download URL lives: 24 h by default (spec section 8), the bundleUrlValidityHours setting. */
export const downloadValidityMs = (app: App): number => app.settings.get().bundleUrlValidityHours * 60 * 60 * 1000;

const bundleRow = z.object({
  bundle_id: z.string(),
  project_id: z.string(),
  org_id: z.string().nullable(),
  date_from: z.string(),
  date_to: z.string(),
  zip_path: z.string(),
  expires_at: z.string(),
  hmac_manifest: z.string(),
  record_counts: jsonColumn(z.record(z.enum(schemaKeys), z.number())),
  frameworks_covered: jsonColumn(z.array(z.string())),
  generated_at: z.string(),
  size_bytes: z.number(),
  object_bucket: z.string().nullable(),
  object_key: z.string().nullable(),
  sha256: z.string().nullable(),
});
type Row = z.infer<typeof bundleRow>;
const columns =
  'bundle_id, project_id, org_id, date_from, date_to, zip_path, expires_at, hmac_manifest, record_counts, frameworks_covered, generated_at, size_bytes, object_bucket, object_key, sha256';

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
const toEntry = (row: Row): BundleEntry => {
  const object = objectOf(row);
  return {
    bundle_id: row.bundle_id,
    zip_path: row.zip_path,
    download_url: object === null ? pathToFileURL(row.zip_path).href : s3Url(object),
    expires_at: row.expires_at,
    hmac_manifest: row.hmac_manifest,
    record_counts: row.record_counts,
    frameworks_covered: row.frameworks_covered,
    generated_at: row.generated_at,
    project_id: row.project_id,
    org_id: row.org_id,
    date_range: [row.date_from, row.date_to],
    size_bytes: row.size_bytes,
    object,
    sha256: row.sha256,
  };
};

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
 * The bundle id is the table's primary key: a duplicate (from any instance) fails the insert, never overwrites.
 */
export const registerBundle = async (
  app: App,
  built: BuiltBundle,
  meta: { projectId: string; orgId: string | null; range: DateRange },
  stored: StoredObject | null = null,
): Promise<BundleEntry> => {
  const expiresAt = new Date(new Date(built.generated_at).getTime() + downloadValidityMs(app)).toISOString();
  const row = await app.database.transaction(async (tx) => {
    await tx.run('DELETE FROM cec_bundles WHERE zip_path = ?', [built.zip_path]);
    return tx.one(
      bundleRow,
      `INSERT INTO cec_bundles (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${columns}`,
      [
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
      ],
    );
  });
  if (row === undefined) throw new AppError('INTERNAL', `registering bundle ${built.bundle_id} returned no row`);
  return toEntry(row);
};

export const getEntry = async (app: App, bundleId: string): Promise<BundleEntry | null> => {
  const row = await app.database.one(bundleRow, `SELECT ${columns} FROM cec_bundles WHERE bundle_id = ?`, [bundleId]);
  return row === undefined ? null : toEntry(row);
};

const countRow = z.object({ n: z.number(), last: z.string().nullable() });

/** Newest first, paged. */
export const listEntries = async (
  app: App,
  options: { limit: number; offset: number; projectId?: string },
): Promise<{ items: BundleEntry[]; total: number }> => {
  const where = options.projectId === undefined ? '' : 'WHERE project_id = ?';
  const filter = options.projectId === undefined ? [] : [options.projectId];
  const rows = await app.database.all(
    bundleRow,
    `SELECT ${columns} FROM cec_bundles ${where} ORDER BY generated_at DESC, bundle_id DESC LIMIT ${boundLimit} OFFSET ?`,
    [...filter, options.limit, options.offset],
  );
  const count = await app.database.one(countRow, `SELECT COUNT(*) AS n, MAX(generated_at) AS last FROM cec_bundles ${where}`, filter);
  return { items: rows.map(toEntry), total: count?.n ?? 0 };
};

/** Moves a bundle's expiry; null when the id is unknown. */
export const setExpiry = async (app: App, bundleId: string, expiresAt: string): Promise<BundleEntry | null> => {
  const row = await app.database.one(bundleRow, `UPDATE cec_bundles SET expires_at = ? WHERE bundle_id = ? RETURNING ${columns}`, [
    expiresAt,
    bundleId,
  ]);
  return row === undefined ? null : toEntry(row);
};

export const registryStats = async (app: App): Promise<{ count: number; last: string | null }> => {
  const row = await app.database.one(countRow, 'SELECT COUNT(*) AS n, MAX(generated_at) AS last FROM cec_bundles');
  return { count: row?.n ?? 0, last: row?.last ?? null };
};
