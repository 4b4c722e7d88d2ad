import type { FrameworkMapping } from '../mapping-dsl.ts';

export const soc2Mapping: FrameworkMapping = {
  citation: 'AICPA TSP 100 (2017 TSC)',
  clauses: {},
  exclusions: { '*': 'Not yet mapped.' },
};
