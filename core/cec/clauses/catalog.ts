import euAiAct from '../frameworks/eu_ai_act.json' with { type: 'json' };
import iso27001 from '../frameworks/iso27001.json' with { type: 'json' };
import iso42001 from '../frameworks/iso_42001.json' with { type: 'json' };
import nistAiRmf from '../frameworks/nist_ai_rmf.json' with { type: 'json' };
import soc2 from '../frameworks/soc2.json' with { type: 'json' };
import type { FrameworkMapping } from './mapping-dsl.ts';
import { euAiActMapping } from './mappings/eu-ai-act.ts';
import { iso27001Mapping } from './mappings/iso27001.ts';
import { iso42001Mapping } from './mappings/iso-42001.ts';
import { nistAiRmfMapping } from './mappings/nist-ai-rmf.ts';
import { soc2Mapping } from './mappings/soc2.ts';
import type { ClauseDefinition, FrameworkId, KeyMapping } from './types.ts';

/** The shape of core/cec/frameworks/*.json (copied from the shared data set). */
type FrameworkData = {
  readonly framework: string;
  readonly name: string;
  readonly version: string;
  readonly clauses: readonly { clause_id: string; clause_name: string; parent: string | null }[];
};

const sources: Readonly<Record<FrameworkId, readonly [FrameworkData, FrameworkMapping]>> = {
  eu_ai_act: [euAiAct, euAiActMapping],
  iso_42001: [iso42001, iso42001Mapping],
  nist_ai_rmf: [nistAiRmf, nistAiRmfMapping],
  iso27001: [iso27001, iso27001Mapping],
  soc2: [soc2, soc2Mapping],
};

/** A group's keys are the union of its children's; a key is primary for the group if any child needs it. */
const rollUp = (children: readonly ClauseDefinition[]): KeyMapping[] => {
  const byKey = new Map<string, KeyMapping>();
  for (const child of children) {
    for (const mapping of child.mappings) {
      const seen = byKey.get(mapping.schema_key);
      if (seen === undefined || (seen.relationship === 'supporting' && mapping.relationship === 'primary')) {
        byKey.set(mapping.schema_key, {
          schema_key: mapping.schema_key,
          relationship: mapping.relationship,
          rationale: `Rolled up from ${child.clause_id}: ${mapping.rationale}`,
        });
      }
    }
  }
  return [...byKey.values()];
};

const exclusionFor = (mapping: FrameworkMapping, data: FrameworkData, clauseId: string): string => {
  const parents = new Map(data.clauses.map((c) => [c.clause_id, c.parent]));
  for (let id: string | null | undefined = clauseId; id; id = parents.get(id)) {
    const reason = mapping.exclusions[id];
    if (reason !== undefined) return reason;
  }
  return mapping.exclusions['*'] ?? 'No evidence schema key speaks to this clause.';
};

const buildFramework = (framework: FrameworkId): ClauseDefinition[] => {
  const [data, mapping] = sources[framework];
  const childrenOf = (id: string) => data.clauses.filter((c) => c.parent === id);
  const built = new Map<string, ClauseDefinition>();
  const define = (raw: FrameworkData['clauses'][number]): ClauseDefinition => {
    const cached = built.get(raw.clause_id);
    if (cached !== undefined) return cached;
    const children = childrenOf(raw.clause_id).map(define);
    const own = mapping.clauses[raw.clause_id];
    const isGroup = children.length > 0;
    const mappings = own?.keys ?? (isGroup ? rollUp(children) : []);
    const mappedChildren = children.filter((child) => child.mappings.length > 0).map((child) => child.clause_id);
    const description =
      own?.description ??
      (isGroup && mappedChildren.length > 0
        ? `${raw.clause_name}: rolls up the evidence of ${mappedChildren.join(', ')}.`
        : raw.clause_name);
    const definition: ClauseDefinition = {
      framework,
      clause_id: raw.clause_id,
      clause_name: raw.clause_name,
      parent: raw.parent,
      level: isGroup ? 'group' : 'clause',
      description,
      mappings,
      source: own?.source ?? `${mapping.citation}, ${raw.clause_id}`,
      exclusion: mappings.length > 0 ? null : exclusionFor(mapping, data, raw.clause_id),
    };
    built.set(raw.clause_id, definition);
    return definition;
  };
  // Keep the data's order (document order), whatever order the recursion filled the cache in.
  return data.clauses.map(define);
};

const catalog = new Map<FrameworkId, readonly ClauseDefinition[]>();

/** Every clause of a framework in document order, each with its mapping or its exclusion reason. */
export const frameworkClauses = (framework: FrameworkId): readonly ClauseDefinition[] => {
  let clauses = catalog.get(framework);
  if (clauses === undefined) {
    clauses = buildFramework(framework);
    catalog.set(framework, clauses);
  }
  return clauses;
};

/** Full title and edition of a framework as the data set gives them. */
export const frameworkEdition = (framework: FrameworkId): { title: string; version: string } => {
  const [data] = sources[framework];
  return { title: data.name, version: data.version };
};

/** Mapped clause ids that do not exist in the framework data (a typo guard for the mapping tables). */
export const unknownMappedClauses = (framework: FrameworkId): string[] => {
  const [data, mapping] = sources[framework];
  const known = new Set(data.clauses.map((c) => c.clause_id));
  return Object.keys(mapping.clauses).filter((id) => !known.has(id));
};
