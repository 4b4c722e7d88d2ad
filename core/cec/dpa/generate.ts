import { ulid } from 'ulid';
import type { App } from '../../app.ts';
import { type DpaRequest, dpaRequestSchema, type SubProcessorInput } from '../../contracts/dpa.ts';
import { AppError, describeZodError, SFCECExportError } from '../../errors.ts';
import { saveDpa } from './store.ts';
import { renderDpaMarkdown, templateVersion } from './template-v1.ts';
import type { DPADocument } from './types.ts';

/** Keyword options of `generateDpa` (spec 4.3: all four required); the last three go beyond the spec. */
export type GenerateDpaOptions = {
  readonly subjectCategories: readonly string[];
  readonly transferMechanisms: readonly string[];
  readonly retentionPeriodDays: number;
  readonly lawOfContract: string;
  readonly dataCategories?: readonly string[];
  readonly processingPurpose?: string;
  readonly subProcessors?: readonly SubProcessorInput[];
};

/** Validates raw (wire-shaped) DPA input; SFCECExportError with code VALIDATION and a field-by-field message. */
export const parseDpaRequest = (input: unknown): DpaRequest => {
  const parsed = dpaRequestSchema.safeParse(input);
  if (!parsed.success) {
    throw new SFCECExportError(`Invalid DPA input: ${describeZodError(parsed.error, 6)}`, { code: 'VALIDATION', cause: parsed.error });
  }
  return parsed.data;
};

/** The document for a validated request, without storing it (the live preview uses this). */
export const buildDpaDocument = (app: App, request: DpaRequest): DPADocument => {
  try {
    return {
      document_id: `dpa-${ulid()}`,
      project_id: request.project_id,
      controller_details: request.controller_details,
      processor_details: request.processor_details,
      generated_at: app.now().toISOString(),
      content: renderDpaMarkdown(request),
      subject_categories: request.subject_categories,
      transfer_mechanisms: request.transfer_mechanisms,
      retention_period_days: request.retention_period_days,
      law_of_contract: request.law_of_contract,
      ...(request.data_categories === undefined ? {} : { data_categories: request.data_categories }),
      ...(request.processing_purpose === undefined ? {} : { processing_purpose: request.processing_purpose }),
      ...(request.sub_processors === undefined ? {} : { sub_processors: request.sub_processors }),
      template_version: templateVersion,
    };
  } catch (error) {
    throw new SFCECExportError('DPA generation failed', { cause: error });
  }
};

/** Generates and stores a DPA from a validated request. */
export const generateDpaFromRequest = async (app: App, request: DpaRequest): Promise<DPADocument> => {
  const document = buildDpaDocument(app, request);
  try {
    await saveDpa(app, document);
  } catch (error) {
    throw error instanceof AppError ? error : new SFCECExportError('Storing the DPA document failed', { cause: error });
  }
  app.log.info({ document_id: document.document_id, project_id: document.project_id }, 'dpa generated');
  return document;
};

/**
 * Generates a GDPR Article 28 Data Processing Agreement (spec 4.3 `generate_dpa`), stores it with the app's
 * data and returns it.
 *
 * @throws SFCECExportError with code VALIDATION for bad input (message names each failing field), or with
 *   code INTERNAL when generation or storage fails.
 * @example
 * generateDpa(app, 'proj-1', { name: 'Acme GmbH', address: 'Berlin' }, { name: 'ModelOps Ltd', address: 'Dublin' },
 *   { subjectCategories: ['customers'], transferMechanisms: ['none_eea_only'], retentionPeriodDays: 90, lawOfContract: 'DE' });
 */
export const generateDpa = async (
  app: App,
  projectId: string,
  controllerDetails: Record<string, unknown>,
  processorDetails: Record<string, unknown>,
  options: GenerateDpaOptions,
): Promise<DPADocument> => {
  const request = parseDpaRequest({
    project_id: projectId,
    controller_details: controllerDetails,
    processor_details: processorDetails,
    subject_categories: options?.subjectCategories,
    transfer_mechanisms: options?.transferMechanisms,
    retention_period_days: options?.retentionPeriodDays,
    law_of_contract: options?.lawOfContract,
    data_categories: options?.dataCategories,
    processing_purpose: options?.processingPurpose,
    sub_processors: options?.subProcessors,
  });
  return generateDpaFromRequest(app, request);
};
