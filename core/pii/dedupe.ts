/** Presidio's remove_duplicates and output order, in O(n log n) for texts with many findings. */
import type { Finding } from './types.ts';

/** Presidio's output order: score desc, start asc, length desc. */
export const compareFindings = (a: Finding, b: Finding): number =>
  b.score - a.score || a.start - b.start || b.end - b.start - (a.end - a.start);

const contains = (outer: Finding, inner: Finding): boolean => outer.start <= inner.start && inner.end <= outer.end;

/** Within one cluster of overlapping same-type findings: keep in Presidio order, drop what a kept one contains. */
const dedupeCluster = (cluster: Finding[], out: Finding[]): void => {
  if (cluster.length === 1) {
    out.push(cluster[0] as Finding);
    return;
  }
  cluster.sort(compareFindings);
  const kept: Finding[] = [];
  for (const f of cluster) if (f.score > 0 && !kept.some((k) => contains(k, f))) kept.push(f);
  out.push(...kept);
};

/**
 * Drops a finding whose span is contained in (or equal to) a better-ranked finding of the same type.
 * Different types that overlap are all kept (Presidio's rule; the redactor resolves them).
 */
export const removeDuplicates = (findings: readonly Finding[]): Finding[] => {
  const byType = new Map<string, Finding[]>();
  for (const f of findings) {
    if (f.score <= 0) continue;
    const list = byType.get(f.type);
    if (list) list.push(f);
    else byType.set(f.type, [f]);
  }
  const out: Finding[] = [];
  for (const list of byType.values()) {
    list.sort((a, b) => a.start - b.start || b.end - a.end);
    let cluster: Finding[] = [];
    let clusterEnd = -1;
    for (const f of list) {
      if (cluster.length > 0 && f.start >= clusterEnd) {
        dedupeCluster(cluster, out);
        cluster = [];
      }
      cluster.push(f);
      clusterEnd = Math.max(clusterEnd, f.end);
    }
    if (cluster.length > 0) dedupeCluster(cluster, out);
  }
  return out.sort(compareFindings);
};
