import type { SchemaKey } from '../../audit/types.ts';

/** The evidence schema keys of the store (contract A), named from the mapping's point of view. */
export type EvidenceKey = SchemaKey;
export type EvidenceCounts = Readonly<Record<EvidenceKey, number>>;

export const frameworkIds = ['eu_ai_act', 'iso_42001', 'nist_ai_rmf', 'iso27001', 'soc2'] as const;
export type FrameworkId = (typeof frameworkIds)[number];

export type ClauseSatisfaction = 'SATISFIED' | 'PARTIAL' | 'GAP';

/** How strongly a schema key evidences a clause: primary keys are required for SATISFIED, supporting ones add weight. */
export type Relationship = 'primary' | 'supporting';

export type KeyMapping = {
  readonly schema_key: EvidenceKey;
  readonly relationship: Relationship;
  /** Why records of this key speak to the clause. */
  readonly rationale: string;
};

/** One clause of a framework with its mapping (or the reason it has none). */
export type ClauseDefinition = {
  readonly framework: FrameworkId;
  readonly clause_id: string;
  readonly clause_name: string;
  /** Parent clause id in the framework data (article, control group, function, category), or null. */
  readonly parent: string | null;
  /** 'group' for headings that have sub-clauses in the data (their status rolls up from the children). */
  readonly level: 'group' | 'clause';
  readonly description: string;
  /** Empty when the clause is out of scope of machine evidence; see `exclusion`. */
  readonly mappings: readonly KeyMapping[];
  /** The framework text the mapping rests on (article, paragraph, control or criterion). */
  readonly source: string;
  /** Why the clause has no mapping; null when it is mapped. */
  readonly exclusion: string | null;
};

/** The spec's ClauseMapEntry plus the drill-down (which keys, how many records each). */
export type ClauseMapEntry = {
  readonly framework: FrameworkId;
  readonly clause_id: string;
  readonly clause_name: string;
  readonly description: string;
  readonly status: ClauseSatisfaction;
  readonly evidence_count: number;
  readonly parent: string | null;
  readonly level: 'group' | 'clause';
  readonly evidence: readonly {
    readonly schema_key: EvidenceKey;
    readonly relationship: Relationship;
    readonly count: number;
  }[];
  /** Per mapped key, which rule (evidence, outcome, cadence) passed or failed and on which records. */
  readonly reasons: readonly ClauseReason[];
};

/** A record named in a reason: enough to find it in the store or in the bundle's NDJSON. */
export type RecordRef = { readonly record_id: string; readonly seq: number; readonly timestamp: string };

/** Machine-readable reason codes of the clause rule (docs/clause-mapping.md, "The rule"). */
export type ReasonCode = 'no_records' | 'outcome_pass' | 'outcome_fail' | 'outcome_unknown' | 'cadence_met' | 'stale' | 'uncovered';

/** One finding of the rule for one mapped key of a clause. */
export type ClauseReason = {
  readonly schema_key: EvidenceKey;
  readonly relationship: Relationship;
  readonly rule: 'evidence' | 'outcome' | 'cadence';
  readonly code: ReasonCode;
  /** Whether this finding allows SATISFIED (primary keys need every finding ok). */
  readonly ok: boolean;
  readonly message: string;
  /** The records the finding rests on (failing or outcome-less latest records; at most 10, counts are in the message). */
  readonly records: readonly RecordRef[];
  readonly failing?: number;
  readonly resolved?: number;
  readonly missing_months?: readonly string[];
  readonly age_days?: number;
};
