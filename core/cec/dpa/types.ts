import { z } from 'zod';
import { partyDetailsSchema, subProcessorSchema } from '../../contracts/dpa.ts';
import { transferMechanismIds } from '../../contracts/dpa-mechanisms.ts';

/**
 * Spec 2.4 DPADocument, plus the inputs that shaped the text so a stored document explains itself. The store
 * checks a document read back against this schema; the type is derived from it, so the two cannot drift.
 */
export const dpaDocumentSchema = z.object({
  document_id: z.string(),
  project_id: z.string(),
  controller_details: partyDetailsSchema,
  processor_details: partyDetailsSchema,
  /** ISO 8601 UTC. */
  generated_at: z.string(),
  /** The full DPA text, Markdown. */
  content: z.string(),
  subject_categories: z.array(z.string()),
  transfer_mechanisms: z.array(z.enum(transferMechanismIds)),
  retention_period_days: z.number(),
  law_of_contract: z.string(),
  data_categories: z.array(z.string()).exactOptional(),
  processing_purpose: z.string().exactOptional(),
  sub_processors: z.array(subProcessorSchema).exactOptional(),
  template_version: z.string(),
});
export type DPADocument = Readonly<z.output<typeof dpaDocumentSchema>>;

/** A row of the documents list (no content). */
export const dpaSummarySchema = z.object({
  document_id: z.string(),
  project_id: z.string(),
  generated_at: z.string(),
  template_version: z.string(),
  controller_name: z.string(),
  processor_name: z.string(),
});
export type DPASummary = Readonly<z.output<typeof dpaSummarySchema>>;
