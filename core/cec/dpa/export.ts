import type { App } from '../../app.ts';
import { envSetting } from '../../config/env-settings.ts';
import { AppError, missingCase, SFCECExportError } from '../../errors.ts';
import { findPdfFonts } from './fonts.ts';
import { renderDpaHtml } from './render-html.ts';
import type { DPADocument } from './types.ts';

export const exportFormats = ['md', 'html', 'pdf', 'docx'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export type DpaExport = { readonly filename: string; readonly mime: string; readonly data: Buffer };

export const exportMimeTypes: Readonly<Record<ExportFormat, string>> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const render = async (app: App, document: DPADocument, format: ExportFormat): Promise<Buffer> => {
  const title = `Data Processing Agreement: ${document.controller_details.name} / ${document.processor_details.name}`;
  const footer = `DPA ${document.document_id} (${document.template_version})`;
  switch (format) {
    case 'md':
      return Buffer.from(document.content, 'utf8');
    case 'html':
      return Buffer.from(renderDpaHtml(document.content, title), 'utf8');
    // pdfkit and docx load on the first export of their format, not when `svc serve` starts.
    case 'pdf': {
      const { renderDpaPdf } = await import('./render-pdf.ts');
      return renderDpaPdf(document.content, findPdfFonts(envSetting(app.env, 'dpaFontDir')), {
        title,
        footer,
        createdAt: new Date(document.generated_at),
      });
    }
    case 'docx': {
      const { renderDpaDocx } = await import('./render-docx.ts');
      return renderDpaDocx(document.content, { title, footer });
    }
    default:
      return missingCase(format);
  }
};

/** Renders a stored DPA in one export format; SFCECExportError when rendering fails. */
export const exportDpa = async (app: App, document: DPADocument, format: ExportFormat): Promise<DpaExport> => {
  try {
    const data = await render(app, document, format);
    const safeProject = document.project_id.replace(/[^A-Za-z0-9._-]/g, '_');
    return { filename: `dpa_${safeProject}_${document.document_id}.${format}`, mime: exportMimeTypes[format], data };
  } catch (error) {
    if (error instanceof AppError) throw error;
    app.log.error({ document_id: document.document_id, format, err: error }, 'dpa export failed');
    throw new SFCECExportError(`Exporting the DPA as ${format} failed`, { cause: error });
  }
};
