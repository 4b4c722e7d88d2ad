import type { PartyDetails, SubProcessor } from '../../contracts/dpa.ts';
import type { TransferMechanismId } from '../../contracts/dpa-mechanisms.ts';

/** Spec 2.4 DPADocument, plus the inputs that shaped the text so a stored document explains itself. */
export type DPADocument = {
  readonly document_id: string;
  readonly project_id: string;
  readonly controller_details: PartyDetails;
  readonly processor_details: PartyDetails;
  /** ISO 8601 UTC. */
  readonly generated_at: string;
  /** The full DPA text, Markdown. */
  readonly content: string;
  readonly subject_categories: readonly string[];
  readonly transfer_mechanisms: readonly TransferMechanismId[];
  readonly retention_period_days: number;
  readonly law_of_contract: string;
  readonly data_categories?: readonly string[];
  readonly processing_purpose?: string;
  readonly sub_processors?: readonly SubProcessor[];
  readonly template_version: string;
};

/** A row of the documents list (no content). */
export type DPASummary = {
  readonly document_id: string;
  readonly project_id: string;
  readonly generated_at: string;
  readonly template_version: string;
  readonly controller_name: string;
  readonly processor_name: string;
};
