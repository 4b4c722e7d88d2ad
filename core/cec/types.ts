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

/**
 * The checks of a verification, in the order screens and `svc verify` show them. Data-driven: a new check
 * (e.g. `anchors`) is one more name here plus the code that sets it; summaries and verdicts follow.
 */
export const verificationCheckNames = ['archive', 'manifest', 'entries', 'hmac', 'signature', 'chain', 'anchors', 'timestamp'] as const;
export type VerificationCheckName = (typeof verificationCheckNames)[number];

/** One named check of a verification, for screens and `--json` output (beyond the spec's booleans). */
export type VerificationCheck = {
  readonly name: VerificationCheckName;
  readonly status: 'pass' | 'fail' | 'skipped';
  /** One line saying what was checked, against what, or why it was not checked. */
  readonly summary: string;
  readonly errors: string[];
};

/** Which signature was checked, and against which key (ids only; never a key carried inside the bundle). */
export type SignatureReport = {
  readonly hmac: { readonly checked: boolean; readonly valid: boolean | null; readonly key_id: string | null };
  readonly ed25519: {
    readonly checked: boolean;
    readonly valid: boolean | null;
    /** RFC 7638 thumbprint of the trusted key that verified the signature. */
    readonly key_id: string | null;
    /** The kid the bundle claims (informational: it is not trusted). */
    readonly claimed_key_id: string | null;
  };
};

/** What the timestamp says, as read from the token (or stub). */
export type TimestampReport = {
  readonly kind: 'rfc3161' | 'stub';
  readonly gen_time: string | null;
  readonly tsa: string | null;
  readonly serial: string | null;
  readonly policy: string | null;
  /** True when the TSA certificate chained to a trust anchor given by the verifier. */
  readonly trusted: boolean;
};

/** Spec 2.4 BundleVerificationResult plus `checks`, `signatures`, `timestamp` and `timestamp_kind`. */
export type BundleVerificationResult = {
  readonly bundle_id: string;
  readonly manifest_valid: boolean;
  readonly chain_valid: boolean;
  readonly timestamp_valid: boolean;
  readonly overall_valid: boolean;
  readonly errors: string[];
  readonly verified_at: string;
  readonly checks: VerificationCheck[];
  readonly signatures: SignatureReport;
  readonly timestamp: TimestampReport | null;
  readonly timestamp_kind: 'rfc3161' | 'stub' | null;
  /** The bundle's chain anchors and anchoring lag; null when the bundle carries no anchors.json. */
  readonly anchors: AnchorReport | null;
};

/** One anchor carried by a bundle, as the verifier found it. */
export type AnchorSummary = {
  readonly seq: number;
  readonly kind: 'rfc3161' | 'ed25519';
  readonly head_hash: string;
  readonly created_at: string;
  /** The token's time (TSA genTime, or the checkpoint's signed anchored_at); null when unknown. */
  readonly time: string | null;
  readonly tsa: string | null;
  /** null: not checked (an Ed25519 checkpoint with no trusted public key). */
  readonly token_valid: boolean | null;
  readonly errors: string[];
  readonly note?: string;
};

/** Anchors plus how long the bundle's records stood unanchored (recorded_at to the first verified anchor at or after them). */
export type AnchorReport = {
  readonly anchors: AnchorSummary[];
  readonly lag: {
    readonly records: number;
    readonly anchored: number;
    /** Records with no verified anchor at or after their seq in this bundle. */
    readonly unanchored: number;
    readonly first_unanchored_seq: number | null;
    readonly max_seconds: number | null;
    readonly p50_seconds: number | null;
    readonly p95_seconds: number | null;
  };
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
