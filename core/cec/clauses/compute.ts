import { frameworkClauses } from './catalog.ts';
import type { ClauseMapEntry, ClauseSatisfaction, EvidenceCounts, FrameworkId, KeyMapping } from './types.ts';

/**
 * The documented rule (docs/clause-mapping.md): SATISFIED when every primary key has at least one record,
 * PARTIAL when some mapped key has records but a primary key has none, GAP when no mapped key has records.
 */
export const clauseStatus = (mappings: readonly KeyMapping[], counts: EvidenceCounts): ClauseSatisfaction => {
  const has = (mapping: KeyMapping) => (counts[mapping.schema_key] ?? 0) > 0;
  if (!mappings.some(has)) return 'GAP';
  const primaries = mappings.filter((mapping) => mapping.relationship === 'primary');
  return primaries.every(has) ? 'SATISFIED' : 'PARTIAL';
};

/**
 * Clause satisfaction for the requested frameworks, in framework then document order. Only clauses with an
 * evidence mapping appear (the others are out of scope of machine evidence; `frameworkClauses` lists them with
 * their reason). evidence_count is the sum of the record counts of the clause's mapped keys.
 */
export const computeClauseMap = (frameworks: readonly FrameworkId[], counts: EvidenceCounts): ClauseMapEntry[] =>
  [...new Set(frameworks)].flatMap((framework) =>
    frameworkClauses(framework)
      .filter((definition) => definition.mappings.length > 0)
      .map((definition) => {
        const evidence = definition.mappings.map((mapping) => ({
          schema_key: mapping.schema_key,
          relationship: mapping.relationship,
          count: counts[mapping.schema_key] ?? 0,
        }));
        return {
          framework,
          clause_id: definition.clause_id,
          clause_name: definition.clause_name,
          description: definition.description,
          status: clauseStatus(definition.mappings, counts),
          evidence_count: evidence.reduce((sum, item) => sum + item.count, 0),
          parent: definition.parent,
          level: definition.level,
          evidence,
        };
      }),
  );
