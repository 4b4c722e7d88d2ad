/**
 * Bounds on what the verifier reads from an untrusted ZIP. Sizes are counted while inflating (headers are not
 * trusted); a legitimate bundle is far inside them, a hostile one hits one and gets a clear error.
 */
export type VerifyLimits = {
  readonly maxEntries: number;
  readonly maxTotalUncompressed: number;
  /** Largest inflated/compressed ratio of an entry, checked once it has inflated more than `ratioGrace` bytes. */
  readonly maxRatio: number;
  readonly ratioGrace: number;
  /** Per-entry caps for the JSON and binary entries parsed in memory. */
  readonly maxJsonBytes: Readonly<Record<string, number>>;
  readonly maxLineBytes: number;
};

const MiB = 1024 * 1024;

export const defaultVerifyLimits: VerifyLimits = {
  maxEntries: 64,
  maxTotalUncompressed: 16 * 1024 * MiB,
  maxRatio: 200,
  ratioGrace: MiB,
  maxJsonBytes: {
    'manifest.json': MiB,
    'attestation.json': 64 * 1024,
    'clause_map.json': 8 * MiB,
    'chain_proof.json': 32 * MiB,
    'rfc3161_timestamp.tsr': 256 * 1024,
    'VERIFY.md': 256 * 1024,
  },
  maxLineBytes: 4 * MiB,
};
