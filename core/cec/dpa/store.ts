import { z } from 'zod';
import type { App } from '../../app.ts';
import { SFCECExportError } from '../../errors.ts';
import type { Dialect } from '../../store/database.ts';
import { jsonColumn } from '../json-column.ts';
import { type DPADocument, type DPASummary, dpaDocumentSchema, dpaSummarySchema } from './types.ts';
import { boundLimit } from '../../store/sql-text.ts';

const documentRow = z.object({ document_json: jsonColumn(dpaDocumentSchema) });

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
    dpaSummarySchema,
    `SELECT document_id, project_id, generated_at, template_version,
            ${partyName(dialect, 'controller_details')} AS controller_name,
            ${partyName(dialect, 'processor_details')} AS processor_name
     FROM dpa_documents WHERE (CAST(? AS TEXT) IS NULL OR project_id = ?)
     ORDER BY generated_at DESC, document_id DESC LIMIT ${boundLimit}`,
    [query.projectId ?? null, query.projectId ?? null, query.limit ?? 100],
  );
};

/** Deletes a stored document; SFCECExportError (NOT_FOUND) when unknown. */
export const deleteDpa = async (app: App, documentId: string): Promise<void> => {
  if ((await app.database.run('DELETE FROM dpa_documents WHERE document_id = ?', [documentId])) === 0) throw notFound();
};
