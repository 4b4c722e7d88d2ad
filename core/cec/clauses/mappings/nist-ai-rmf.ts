import type { FrameworkMapping } from '../mapping-dsl.ts';

export const nistAiRmfMapping: FrameworkMapping = {
  citation: 'NIST AI 100-1 (AI RMF 1.0)',
  clauses: {},
  exclusions: { '*': 'Not yet mapped.' },
};
