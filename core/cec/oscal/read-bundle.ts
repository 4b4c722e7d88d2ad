import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { z } from 'zod';
import type { App } from '../../app.ts';
import { SFCECVerifyError } from '../../errors.ts';
import { SFCECClient, type VerifyBundleOptions } from '../client.ts';
import { type Manifest, manifestSchema } from '../manifest.ts';
import type { BundleVerificationResult } from '../types.ts';
import { defaultVerifyLimits } from '../verify-limits.ts';
import { readEntry } from '../zip-reader.ts';
import { openStrictZip } from '../zip-strict.ts';

const reasonSchema = z.object({
  schema_key: z.string(),
  relationship: z.string(),
  rule: z.string(),
  code: z.string(),
  ok: z.boolean(),
  message: z.string(),
  records: z.array(z.object({ record_id: z.string(), seq: z.number(), timestamp: z.string() })),
});
const keySummarySchema = z.object({
  count: z.number(),
  first_at: z.string().nullable(),
  latest_at: z.string().nullable(),
  series: z.number(),
  passing: z.number(),
  failing: z.number(),
  unknown: z.number(),
  resolved: z.number(),
});

/** clause_map.json as bundles write it: version 1 (counts only) or 2 (reasons, rule version, evidence summary). */
export const bundleClauseMapSchema = z.object({
  schema_version: z.number().int(),
  project_id: z.string(),
  date_range: z.object({ from: z.string(), to: z.string() }),
  record_counts: z.record(z.string(), z.number()),
  frameworks: z.array(z.string()),
  rule_version: z.string().optional(),
  window: z.object({ as_of: z.string() }).optional(),
  evidence_summary: z.record(z.string(), keySummarySchema).optional(),
  entries: z.array(
    z.object({
      framework: z.string(),
      clause_id: z.string(),
      clause_name: z.string(),
      description: z.string(),
      status: z.enum(['SATISFIED', 'PARTIAL', 'GAP']),
      evidence_count: z.number(),
      level: z.enum(['group', 'clause']).optional(),
      evidence: z.array(z.object({ schema_key: z.string(), relationship: z.string(), count: z.number() })),
      reasons: z.array(reasonSchema).optional(),
    }),
  ),
});
export type BundleClauseMap = z.infer<typeof bundleClauseMapSchema>;

/** What the OSCAL export needs from a bundle: its verdict, manifest, clause map and the ZIP's own digest. */
export type BundleContents = {
  readonly file_name: string;
  readonly sha256: string;
  readonly size: number;
  readonly verification: BundleVerificationResult;
  readonly manifest: Manifest;
  readonly clause_map: BundleClauseMap;
};

const fileSha256 = async (path: string): Promise<{ sha256: string; size: number }> => {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
};

/** Reads named JSON entries with the verifier's strict reader and limits (a hostile ZIP fails as it fails verification). */
const readJsonEntries = async (zipPath: string, names: readonly string[]): Promise<Map<string, unknown>> => {
  const zip = openStrictZip(zipPath, defaultVerifyLimits);
  try {
    const out = new Map<string, unknown>();
    for (const name of names) {
      const entry = zip.files.get(name);
      if (entry === undefined) continue;
      const bytes = await readEntry(zip, entry, defaultVerifyLimits.maxJsonBytes[name] ?? 1024 * 1024);
      out.set(name, JSON.parse(bytes.toString('utf8')));
    }
    return out;
  } finally {
    zip.close();
  }
};

const parsed = <T>(schema: z.ZodType<T>, value: unknown, name: string): T => {
  const result = schema.safeParse(value);
  if (!result.success) throw new SFCECVerifyError(`${name} is missing or not a bundle's ${name}`, { code: 'VALIDATION' });
  return result.data;
};

/**
 * A verified read: runs the full bundle verification first (its verdict travels into the export), then reads
 * the manifest and clause map. Raises SFCECVerifyError for a missing or unreadable file or entries that are not
 * a bundle's; a readable bundle that fails verification is still exported, with the failure stated.
 */
export const readVerifiedBundle = async (app: App, zipPath: string, options: VerifyBundleOptions = {}): Promise<BundleContents> => {
  // The client applies the same trust inputs as `svc verify` (explicit keys, else the install's trust list).
  const verification = await new SFCECClient({ app }).verifyBundle(zipPath, options);
  let json: Map<string, unknown>;
  try {
    json = await readJsonEntries(zipPath, ['manifest.json', 'clause_map.json']);
  } catch (error) {
    throw new SFCECVerifyError(`Bundle cannot be read: ${(error as Error).message}`, { code: 'VALIDATION', cause: error });
  }
  return {
    file_name: basename(zipPath),
    ...(await fileSha256(zipPath)),
    verification,
    manifest: parsed(manifestSchema, json.get('manifest.json'), 'manifest.json'),
    clause_map: parsed(bundleClauseMapSchema, json.get('clause_map.json'), 'clause_map.json'),
  };
};
