import type { App } from '../../app.ts';
import { SFCECExportError } from '../../errors.ts';
import type { DPADocument, DPASummary } from './types.ts';

/** Persists a generated document. */
export const saveDpa = (app: App, document: DPADocument): void => {
  app.db
    .prepare('INSERT INTO dpa_documents (document_id, project_id, generated_at, template_version, document_json) VALUES (?, ?, ?, ?, ?)')
    .run(document.document_id, document.project_id, document.generated_at, document.template_version, JSON.stringify(document));
};

/** The stored document; SFCECExportError (NOT_FOUND) when unknown. */
export const getDpa = (app: App, documentId: string): DPADocument => {
  const row = app.db.prepare('SELECT document_json FROM dpa_documents WHERE document_id = ?').get(documentId) as
    | { document_json: string }
    | undefined;
  if (row === undefined) throw new SFCECExportError('DPA document not found', { code: 'NOT_FOUND' });
  return JSON.parse(row.document_json) as DPADocument;
};

/** Newest first, optionally one project's; the content stays in the database. */
export const listDpas = (app: App, query: { projectId?: string; limit?: number } = {}): DPASummary[] =>
  app.db
    .prepare(
      `SELECT document_id, project_id, generated_at, template_version,
              json_extract(document_json, '$.controller_details.name') AS controller_name,
              json_extract(document_json, '$.processor_details.name') AS processor_name
       FROM dpa_documents WHERE (? IS NULL OR project_id = ?)
       ORDER BY generated_at DESC, document_id DESC LIMIT ?`,
    )
    .all(query.projectId ?? null, query.projectId ?? null, query.limit ?? 100) as DPASummary[];

/** Deletes a stored document; SFCECExportError (NOT_FOUND) when unknown. */
export const deleteDpa = (app: App, documentId: string): void => {
  const result = app.db.prepare('DELETE FROM dpa_documents WHERE document_id = ?').run(documentId);
  if (result.changes === 0) throw new SFCECExportError('DPA document not found', { code: 'NOT_FOUND' });
};
