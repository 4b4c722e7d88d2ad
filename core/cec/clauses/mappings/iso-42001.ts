import type { FrameworkMapping } from '../mapping-dsl.ts';

export const iso42001Mapping: FrameworkMapping = {
  citation: 'ISO/IEC 42001:2023',
  clauses: {},
  exclusions: { '*': 'Not yet mapped.' },
};
