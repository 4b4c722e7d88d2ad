import type { EvidenceKey, KeyMapping } from './types.ts';

/** How one framework's clauses are mapped; authored per framework in ./mappings/. */
export type FrameworkMapping = {
  /** Citation prefix for `source`, e.g. "Regulation (EU) 2024/1689". */
  readonly citation: string;
  /** Mapped clauses by clause_id: own-words description and the keys that evidence it. */
  readonly clauses: Readonly<Record<string, MappedClause>>;
  /**
   * Why an unmapped clause is out of scope, by clause id or by an ancestor's id (the nearest wins);
   * `*` is the framework-wide default.
   */
  readonly exclusions: Readonly<Record<string, string>>;
};

export type MappedClause = {
  readonly description: string;
  readonly keys: readonly KeyMapping[];
  /** Overrides the default source (citation + clause id) when the mapping rests on other text too. */
  readonly source?: string;
};

/** A key that must have records for the clause to be SATISFIED. */
export const primary = (schema_key: EvidenceKey, rationale: string): KeyMapping => ({
  schema_key,
  relationship: 'primary',
  rationale,
});

/** A key that adds weight (and can make a clause PARTIAL) but is not required. */
export const supporting = (schema_key: EvidenceKey, rationale: string): KeyMapping => ({
  schema_key,
  relationship: 'supporting',
  rationale,
});

export const clause = (description: string, ...keys: KeyMapping[]): MappedClause => ({ description, keys });
