import type { FrameworkMapping } from '../mapping-dsl.ts';

export const iso27001Mapping: FrameworkMapping = {
  citation: 'ISO/IEC 27001:2022 Annex A',
  clauses: {},
  exclusions: { '*': 'Not yet mapped.' },
};
