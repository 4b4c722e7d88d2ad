import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { type ExportFormat, exportDpa, exportFormats } from './export.ts';
import { generateDpaFromRequest, parseDpaRequest } from './generate.ts';
import { docxToText, dpaChecklist as checklist, htmlToText, pdfToText, sampleRequest } from './test-support.ts';

let app: App;
const texts = new Map<ExportFormat, string>();

beforeAll(async () => {
  app = createApp({ dataDir: ':memory:', env: {} });
  const document = await generateDpaFromRequest(app, parseDpaRequest(sampleRequest()));
  for (const format of exportFormats) {
    const file = await exportDpa(app, document, format);
    const text =
      format === 'pdf'
        ? await pdfToText(file.data)
        : format === 'docx'
          ? await docxToText(file.data)
          : format === 'html'
            ? htmlToText(file.data.toString('utf8'))
            : file.data.toString('utf8').replace(/\s+/g, ' ');
    texts.set(format, text);
  }
});
afterAll(() => app.close());

describe.each(exportFormats)('DPA checklist in %s', (format) => {
  it.each(checklist)('has %s', (_element, expected) => {
    expect(texts.get(format)).toContain(expected);
  });
});

describe('PDF layout', () => {
  it('numbers its pages', () => {
    expect(texts.get('pdf')).toMatch(/Page 1 of (\d+)/);
    const total = Number(/Page 1 of (\d+)/.exec(texts.get('pdf') ?? '')?.[1]);
    expect(texts.get('pdf')).toContain(`Page ${total} of ${total}`);
  });
});
