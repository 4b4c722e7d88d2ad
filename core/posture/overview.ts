import { z } from 'zod';
import type { App } from '../app.ts';
import { schemaKeys } from '../audit/types.ts';
import { listEntries } from '../cec/registry.ts';
import { frameworkClauses, frameworkDisplayName, frameworkIds, projectClauseMap } from '../cec/clauses/index.ts';
import type { ClauseMapEntry, ClauseSatisfaction, FrameworkId } from '../cec/clauses/index.ts';
import { anchoringLag } from '../audit/anchors/lag.ts';
import { type Alert, anchorLagAlert, credentialAlerts, evidenceAlerts, tsaAlert } from './alerts.ts';
import { listSamples } from './sample.ts';

/** The chain head, read from the evidence chain's table. */
const headRow = z.object({ head_seq: z.number().int(), head_hash: z.string(), updated_at: z.string() });

/** A heatmap cell: one framework's top-level clause group, with its leaf clauses tallied by status. */
export type HeatCell = {
  readonly framework: FrameworkId;
  readonly group_id: string;
  readonly group_name: string;
  readonly status: ClauseSatisfaction;
  readonly SATISFIED: number;
  readonly PARTIAL: number;
  readonly GAP: number;
  /** The first clause of the worst status, where a click lands. */
  readonly focus_clause: string;
};

const worst = (statuses: readonly ClauseSatisfaction[]): ClauseSatisfaction =>
  statuses.includes('GAP') ? 'GAP' : statuses.includes('PARTIAL') ? 'PARTIAL' : 'SATISFIED';

/** Groups each framework's mapped leaf clauses under their top-level ancestor in document order. */
export const heatmap = (entries: readonly ClauseMapEntry[]): HeatCell[] =>
  frameworkIds.flatMap((framework) => {
    const clauses = frameworkClauses(framework);
    const parent = new Map(clauses.map((c) => [c.clause_id, c.parent]));
    const name = new Map(clauses.map((c) => [c.clause_id, c.clause_name]));
    const rootOf = (id: string): string => {
      let current = id;
      for (let up = parent.get(current); up; up = parent.get(current)) current = up;
      return current;
    };
    const groups = new Map<string, ClauseMapEntry[]>();
    for (const entry of entries.filter((e) => e.framework === framework && e.level === 'clause')) {
      const root = rootOf(entry.clause_id);
      groups.set(root, [...(groups.get(root) ?? []), entry]);
    }
    return [...groups].map(([root, leaves]) => {
      const status = worst(leaves.map((leaf) => leaf.status));
      const tally = (s: ClauseSatisfaction) => leaves.filter((leaf) => leaf.status === s).length;
      return {
        framework,
        group_id: root,
        group_name: name.get(root) ?? root,
        status,
        SATISFIED: tally('SATISFIED'),
        PARTIAL: tally('PARTIAL'),
        GAP: tally('GAP'),
        focus_clause: leaves.find((leaf) => leaf.status === status)?.clause_id ?? root,
      };
    });
  });

/**
 * Everything the Overview screen shows for one project: evidence volume per month and key, the chain head,
 * the coverage heatmap over all frameworks, recent bundles and alerts. Aggregated in SQL (no payloads).
 */
export const projectOverview = async (app: App, projectId: string) => {
  const map = await projectClauseMap(app, { projectId, frameworks: frameworkIds });
  const months = [...new Set(schemaKeys.flatMap((key) => Object.keys(map.evidence_summary[key].months)))].sort();
  const head = await app.database.one(headRow, 'SELECT head_seq, head_hash, updated_at FROM audit_chain_heads WHERE project_id = ?', [
    projectId,
  ]);
  const tsa = await tsaAlert(app);
  const anchoring = await anchoringLag(app, projectId, head);
  const lagAlert = anchorLagAlert(app, projectId, anchoring);
  const alerts: Alert[] = [
    ...evidenceAlerts(map),
    ...(lagAlert === null ? [] : [lagAlert]),
    ...(await credentialAlerts(app)),
    ...(tsa === null ? [] : [tsa]),
  ];
  const bundles = await listEntries(app, { projectId, limit: 5, offset: 0 });
  return {
    project_id: projectId,
    is_sample: (await listSamples(app)).some((sample) => sample.project_id === projectId),
    rule_version: map.rule_version,
    as_of: map.window.as_of,
    record_counts: map.record_counts,
    volume: months.map((month) => ({
      month,
      counts: Object.fromEntries(schemaKeys.map((key) => [key, map.evidence_summary[key].months[month] ?? 0])) as Record<
        (typeof schemaKeys)[number],
        number
      >,
    })),
    chain: head === undefined ? null : { head_seq: head.head_seq, head_hash: head.head_hash, updated_at: head.updated_at },
    anchoring,
    frameworks: frameworkIds.map((id) => ({ id, name: frameworkDisplayName(id) })),
    heatmap: heatmap(map.entries),
    bundles: bundles.items.map((entry) => ({
      bundle_id: entry.bundle_id,
      zip_path: entry.zip_path,
      generated_at: entry.generated_at,
      date_range: entry.date_range,
      frameworks_covered: entry.frameworks_covered,
      size_bytes: entry.size_bytes,
    })),
    alerts,
  };
};
