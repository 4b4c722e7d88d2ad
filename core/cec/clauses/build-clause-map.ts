import type { App } from '../../app.ts';
import { type ClauseMapQuery, clauseMapOf, type ProjectClauseMap, projectClauseMap } from './clause-map.ts';
import { EvidenceTally } from './evidence-tally.ts';

/** A bundle build's clause map, tallied from the rows its segment pass reads. */
export type BuildClauseMap = {
  /** Feed it every in-range row of the pass (a split pass merges the worker's tally into it). */
  readonly tally: EvidenceTally;
  /** The clause map as of the end of the pass (call once the pass is done). */
  readonly result: () => Promise<ProjectClauseMap>;
};

/**
 * The clause map of a build: the pass tallies it (both threads of a split pass, merged), and SQL on this thread
 * takes over only when the tally cannot vouch for a value (evidence-tally.ts). No worker aggregates it in SQL
 * any more: beside a split pass a third thread has no free core, and its isolate broke the 300 MB aim at 1M
 * records (docs/decisions.md, "Bundle build, fourth pass").
 */
export const clauseMapForBuild = (app: App, query: ClauseMapQuery): BuildClauseMap => {
  const tally = new EvidenceTally();
  return {
    tally,
    result: async () => {
      const assessment = tally.result();
      return assessment === null ? projectClauseMap(app, query) : clauseMapOf(app, query, assessment);
    },
  };
};
