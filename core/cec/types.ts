import type { SchemaKey } from '../audit/types.ts';

/** Spec 2.4 BundleResult: what a build returns and the registry keeps. */
export type BundleResult = {
  readonly bundle_id: string;
  readonly zip_path: string;
  readonly download_url: string;
  readonly expires_at: string;
  readonly hmac_manifest: string;
  readonly record_counts: Record<SchemaKey, number>;
  readonly frameworks_covered: string[];
  readonly generated_at: string;
};

/** One named check of a verification, for screens and `--json` output (beyond the spec's booleans). */
export type VerificationCheck = {
  readonly name: 'archive' | 'manifest' | 'entries' | 'hmac' | 'signature' | 'chain' | 'timestamp';
  readonly status: 'pass' | 'fail' | 'skipped';
  readonly errors: string[];
};

/** Spec 2.4 BundleVerificationResult plus `checks` and `timestamp_kind`. */
export type BundleVerificationResult = {
  readonly bundle_id: string;
  readonly manifest_valid: boolean;
  readonly chain_valid: boolean;
  readonly timestamp_valid: boolean;
  readonly overall_valid: boolean;
  readonly errors: string[];
  readonly verified_at: string;
  readonly checks: VerificationCheck[];
  readonly timestamp_kind: 'rfc3161' | 'stub' | null;
};

/** Spec 2.4 CECStatusInfo. */
export type CECStatusInfo = {
  readonly byos_provider: string | null;
  readonly bundle_count: number;
  readonly last_bundle_at: string | null;
  readonly frameworks_supported: string[];
};

/** A date range, both ends inclusive `YYYY-MM-DD` (UTC) on the records' event time. */
export type DateRange = readonly [from: string, to: string];
