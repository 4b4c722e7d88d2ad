import { AppError } from '../../errors.ts';
import { type FrameworkId, frameworkIds } from './types.ts';

const displayNames: Readonly<Record<FrameworkId, string>> = {
  eu_ai_act: 'EU AI Act',
  iso_42001: 'ISO/IEC 42001',
  nist_ai_rmf: 'NIST AI RMF',
  iso27001: 'ISO/IEC 27001 (Annex A)',
  soc2: 'SOC 2 Type II',
};

/** Other spellings people type; matched after normalisation (case and punctuation ignored). */
const aliases: Readonly<Record<FrameworkId, readonly string[]>> = {
  eu_ai_act: ['AI Act', 'EU AIA', 'Regulation (EU) 2024/1689', 'Artificial Intelligence Act'],
  iso_42001: ['ISO 42001', 'ISO/IEC 42001:2023', 'ISO 42001:2023'],
  nist_ai_rmf: ['NIST AI RMF 1.0', 'AI RMF', 'AI RMF 1.0', 'NIST AI 100-1', 'NIST'],
  iso27001: ['ISO 27001', 'ISO/IEC 27001', 'ISO/IEC 27001:2022', 'ISO 27001:2022', 'ISO 27001 Annex A'],
  soc2: ['SOC 2', 'SOC 2 Type 2', 'SOC2 Type II', 'SOC2 Type 2', 'Trust Services Criteria', 'TSC'],
};

/** Lower case, letters and digits only: "ISO/IEC 27001 (Annex A)" and "iso_27001" both become comparable. */
const normalise = (value: string): string => value.toLowerCase().replace(/[^a-z0-9]/g, '');

const lookup: ReadonlyMap<string, FrameworkId> = new Map(
  frameworkIds.flatMap((id) => [id, displayNames[id], ...aliases[id]].map((name) => [normalise(name), id] as const)),
);

/** The display name of a framework id (e.g. `soc2` → "SOC 2 Type II"). */
export const frameworkDisplayName = (id: FrameworkId): string => displayNames[id];

/** Every value resolveFramework accepts, for error messages and docs. */
export const acceptedFrameworkValues = (): string[] => frameworkIds.flatMap((id) => [id, displayNames[id], ...aliases[id]]);

/**
 * Resolves a framework given by id, display name or a common alias, ignoring case and punctuation.
 * @throws AppError VALIDATION naming the accepted ids and display names when the value is unknown.
 */
export const resolveFramework = (value: string): FrameworkId => {
  const id = lookup.get(normalise(value));
  if (id !== undefined) return id;
  const accepted = frameworkIds.map((known) => `${known} (${displayNames[known]})`).join(', ');
  throw new AppError('VALIDATION', `Unknown framework "${value.slice(0, 80)}"; accepted: ${accepted}`, {
    status: 422,
    detail: { accepted: acceptedFrameworkValues() },
  });
};
