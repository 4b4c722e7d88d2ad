import { z } from 'zod';
import type { App } from '../../app.ts';
import { partyDetailsSchema, subProcessorSchema } from '../../contracts/dpa.ts';
import { transferMechanismIds } from '../../contracts/dpa-mechanisms.ts';
import { SFCECExportError } from '../../errors.ts';
import type { Dialect } from '../../store/database.ts';
import { jsonColumn } from '../json-column.ts';
import type { DPADocument, DPASummary } from './types.ts';

/** A stored document as it is read back: the shape generate.ts wrote, checked again on the way in. */
const storedDocument: z.ZodType<DPADocument> = z.object({
  document_id: z.string(),
  project_id: z.string(),
  controller_details: partyDetailsSchema,
  processor_details: partyDetailsSchema,
  generated_at: z.string(),
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
const documentRow = z.object({ document_json: jsonColumn(storedDocument) });
const summaryRow: z.ZodType<DPASummary> = z.object({
  document_id: z.string(),
  project_id: z.string(),
  generated_at: z.string(),
  template_version: z.string(),
  controller_name: z.string(),
  processor_name: z.string(),
});

/** A party's name inside the stored JSON, read by the database so a list never loads the documents' text. */
const partyName = (dialect: Dialect, party: 'controller_details' | 'processor_details'): string =>
  dialect === 'postgres' ? `(document_json::jsonb #>> '{${party},name}')` : `json_extract(document_json, '$.${party}.name')`;

const notFound = () => new SFCECExportError('DPA document not found', { code: 'NOT_FOUND' });

/** Persists a generated document. The document id is the primary key: a duplicate fails, never overwrites. */
export const saveDpa = async (app: App, document: DPADocument): Promise<void> => {
  await app.database.run(
    'INSERT INTO dpa_documents (document_id, project_id, generated_at, template_version, document_json) VALUES (?, ?, ?, ?, ?)',
    [document.document_id, document.project_id, document.generated_at, document.template_version, JSON.stringify(document)],
  );
};

/** The stored document; SFCECExportError (NOT_FOUND) when unknown. */
export const getDpa = async (app: App, documentId: string): Promise<DPADocument> => {
  const row = await app.database.one(documentRow, 'SELECT document_json FROM dpa_documents WHERE document_id = ?', [documentId]);
  if (row === undefined) throw notFound();
  return row.document_json;
};

/** Newest first, optionally one project's; the content stays in the database. */
export const listDpas = async (app: App, query: { projectId?: string; limit?: number } = {}): Promise<DPASummary[]> => {
  const dialect = app.database.dialect;
  return app.database.all(
    summaryRow,
    `SELECT document_id, project_id, generated_at, template_version,
            ${partyName(dialect, 'controller_details')} AS controller_name,
            ${partyName(dialect, 'processor_details')} AS processor_name
     FROM dpa_documents WHERE (CAST(? AS TEXT) IS NULL OR project_id = ?)
     ORDER BY generated_at DESC, document_id DESC LIMIT ?`,
    [query.projectId ?? null, query.projectId ?? null, query.limit ?? 100],
  );
};

/** Deletes a stored document; SFCECExportError (NOT_FOUND) when unknown. */
export const deleteDpa = async (app: App, documentId: string): Promise<void> => {
  if ((await app.database.run('DELETE FROM dpa_documents WHERE document_id = ?', [documentId])) === 0) throw notFound();
};
