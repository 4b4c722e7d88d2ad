/**
 * The Chapter V GDPR transfer mechanisms a DPA can name. Ids are stable API values; display names are what
 * the form shows and what callers may send instead of the id.
 */
export const transferMechanismIds = [
  'none_eea_only',
  'adequacy_decision',
  'scc_2021_914_module_1',
  'scc_2021_914_module_2',
  'scc_2021_914_module_3',
  'scc_2021_914_module_4',
  'bcr',
  'derogation_art49',
] as const;
export type TransferMechanismId = (typeof transferMechanismIds)[number];

export type TransferMechanismInfo = {
  readonly id: TransferMechanismId;
  readonly displayName: string;
  /** Other spellings accepted on input (compared case-insensitively, whitespace collapsed). */
  readonly aliases: readonly string[];
};

export const transferMechanisms: Readonly<Record<TransferMechanismId, TransferMechanismInfo>> = {
  none_eea_only: {
    id: 'none_eea_only',
    displayName: 'No transfer outside the EEA',
    aliases: ['none', 'eea only', 'no transfer'],
  },
  adequacy_decision: {
    id: 'adequacy_decision',
    displayName: 'Adequacy decision (Art. 45 GDPR)',
    aliases: ['adequacy', 'art. 45', 'article 45'],
  },
  scc_2021_914_module_1: {
    id: 'scc_2021_914_module_1',
    displayName: 'SCC 2021/914 Module One (controller to controller)',
    aliases: ['scc module 1', 'scc module one'],
  },
  scc_2021_914_module_2: {
    id: 'scc_2021_914_module_2',
    displayName: 'SCC 2021/914 Module Two (controller to processor)',
    // A DPA is a controller-to-processor contract, so an unqualified "SCC" means Module Two (docs/decisions.md, "GDPR Art. 28 DPA generator").
    aliases: ['scc', 'sccs', 'standard contractual clauses', 'scc module 2', 'scc module two'],
  },
  scc_2021_914_module_3: {
    id: 'scc_2021_914_module_3',
    displayName: 'SCC 2021/914 Module Three (processor to processor)',
    aliases: ['scc module 3', 'scc module three'],
  },
  scc_2021_914_module_4: {
    id: 'scc_2021_914_module_4',
    displayName: 'SCC 2021/914 Module Four (processor to controller)',
    aliases: ['scc module 4', 'scc module four'],
  },
  bcr: {
    id: 'bcr',
    displayName: 'Binding corporate rules (Art. 47 GDPR)',
    aliases: ['binding corporate rules', 'art. 47', 'article 47'],
  },
  derogation_art49: {
    id: 'derogation_art49',
    displayName: 'Derogation for a specific situation (Art. 49 GDPR)',
    aliases: ['derogation', 'art. 49', 'article 49'],
  },
};

const normalize = (value: string): string => value.trim().replace(/\s+/g, ' ').toLowerCase();

const lookup = new Map<string, TransferMechanismId>(
  transferMechanismIds.flatMap((id) => {
    const info = transferMechanisms[id];
    return [id, info.displayName, ...info.aliases].map((name) => [normalize(name), id] as const);
  }),
);

/** The mechanism id for an id, display name or alias (case-insensitive), or undefined when unknown. */
export const resolveTransferMechanism = (value: string): TransferMechanismId | undefined => lookup.get(normalize(value));

/** Canonical order (the order of `transferMechanismIds`), duplicates removed: same inputs, same document. */
export const canonicalMechanisms = (ids: readonly TransferMechanismId[]): TransferMechanismId[] =>
  transferMechanismIds.filter((id) => ids.includes(id));

const sccModules: Partial<Record<TransferMechanismId, string>> = {
  scc_2021_914_module_1: 'One',
  scc_2021_914_module_2: 'Two',
  scc_2021_914_module_3: 'Three',
  scc_2021_914_module_4: 'Four',
};

/** The module of Commission Decision (EU) 2021/914 a mechanism names, e.g. 'Two', or undefined for the others. */
export const sccModuleName = (id: TransferMechanismId): string | undefined => sccModules[id];
