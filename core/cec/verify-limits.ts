/**
 * Bounds on what the verifier reads from an untrusted ZIP. Entries are read only when the manifest lists them
 * (or they are one of the three signing entries, capped below), and never past the size the manifest lists.
 */
export type VerifyLimits = {
  readonly maxEntries: number;
  /** Sum of the sizes the central directory declares. */
  readonly maxTotalUncompressed: number;
  /** Caps of the entries parsed in memory (the three unlisted signing entries and the JSON documents). */
  readonly maxJsonBytes: Readonly<Record<string, number>>;
  readonly maxLineBytes: number;
  /** Deepest JSON nesting accepted in a record (the ingest limit). */
  readonly maxDepth: number;
  /**
   * NDJSON folders declaring at least this many bytes in all (about 100k records) are shared between the verifying
   * thread and a worker per other core; below it the workers cost more than they save (docs/decisions.md, "Verify and build speed"). Only
   * where the work runs changes, never what is checked.
   */
  readonly parallelFolderBytes: number;
};

const MiB = 1024 * 1024;

export const defaultVerifyLimits: VerifyLimits = {
  maxEntries: 64,
  maxTotalUncompressed: 16 * 1024 * MiB,
  maxJsonBytes: {
    'manifest.json': MiB,
    'attestation.json': 64 * 1024,
    'clause_map.json': 8 * MiB,
    'chain_proof.json': 32 * MiB,
    'anchors.json': 32 * MiB,
    'rfc3161_timestamp.tsr': 256 * 1024,
    'VERIFY.md': 256 * 1024,
  },
  maxLineBytes: 4 * MiB,
  maxDepth: 64,
  parallelFolderBytes: 64 * MiB,
};
