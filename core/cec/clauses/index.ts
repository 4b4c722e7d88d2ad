/** Clause mapping for the five frameworks (contract B): resolve, describe, compute SATISFIED / PARTIAL / GAP. */
export { frameworkClauses, frameworkEdition } from './catalog.ts';
export { clauseStatus, computeClauseMap } from './compute.ts';
export { projectClauseMap } from './clause-map.ts';
export { acceptedFrameworkValues, frameworkDisplayName, resolveFramework } from './resolve.ts';
export { frameworkIds } from './types.ts';
export type {
  ClauseDefinition,
  ClauseMapEntry,
  ClauseReason,
  ClauseSatisfaction,
  EvidenceCounts,
  EvidenceKey,
  FrameworkId,
  KeyMapping,
  Relationship,
} from './types.ts';
