import type { FrameworkMapping } from '../mapping-dsl.ts';

export const euAiActMapping: FrameworkMapping = {
  citation: 'Regulation (EU) 2024/1689',
  clauses: {},
  exclusions: { '*': 'Not yet mapped.' },
};
