import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { type ExportFormat, exportDpa, exportFormats } from './export.ts';
import { generateDpaFromRequest, parseDpaRequest } from './generate.ts';
import { docxToText, htmlToText, pdfToText, sampleRequest } from './test-support.ts';

/** Issue 5 "Done when": one assertion per required element, in every export format. */
const checklist: readonly (readonly [element: string, expected: string])[] = [
  ['title', 'Data Processing Agreement'],
  ['template version', 'Template version: dpa-art28/1.0.0'],
  ['parties section', '1. Parties'],
  ['controller name', 'Acme Lending GmbH'],
  ['controller address', 'Hauptstraße 1, 10115 Berlin, Germany'],
  ['processor name', 'ModelOps Ltd'],
  ['processor address', '2 Dock Road, Dublin, Ireland'],
  ['subject matter', 'Subject matter.'],
  ['duration', 'Duration.'],
  ['nature', 'Nature.'],
  ['purpose', 'Purpose.'],
  ['types of personal data', 'Types of personal data.'],
  ['categories of data subjects', 'Categories of data subjects.'],
  ['first subject category', 'Loan applicants'],
  ['second subject category', 'Employees of the Controller'],
  ['Art. 28(3) heading', 'Obligations of the Processor (Article 28(3) GDPR)'],
  ['28(3)(a) instructions', '(a) Documented instructions.'],
  ['28(3)(b) confidentiality', '(b) Confidentiality.'],
  ['28(3)(c) security', '(c) Security.'],
  ['28(3)(d) sub-processor conditions', '(d) Sub-processors.'],
  ['28(3)(e) data subject rights', '(e) Data subject rights.'],
  ['28(3)(f) Arts. 32-36', '(f) Assistance with Articles 32 to 36.'],
  ['28(3)(g) deletion or return', '(g) Deletion or return.'],
  ['28(3)(h) information and audits', '(h) Information and audits.'],
  ['sub-processors 28(2)/28(4)', 'Sub-processors (Article 28(2) and 28(4) GDPR)'],
  ['sub-processor flow-down', 'the same data protection obligations'],
  ['security Art. 32', 'Security of processing (Article 32 GDPR)'],
  ['breach Art. 33', 'Personal data breach notification (Article 33 GDPR)'],
  ['without undue delay', 'notifies the Controller without undue delay'],
  ['assistance section', 'Assistance to the Controller'],
  ['DPIA Art. 35 and consultation Art. 36', 'prior consultation of the supervisory authority (Article 36 GDPR)'],
  ['deletion or return section', 'Deletion or return of personal data'],
  ['audits section', 'Audits and inspections'],
  ['Chapter V section', 'International transfers (Chapter V GDPR)'],
  ['SCC decision named', 'Decision (EU) 2021/914'],
  ['SCC module named', 'Module Two'],
  ['adequacy decision', 'Adequacy decision (Art. 45 GDPR)'],
  ['retention section', '12. Retention'],
  ['retention period', 'longer than 90 days'],
  ['governing law section', 'Governing law and jurisdiction'],
  ['governing law from lawOfContract', 'governed by the law of Germany'],
  ['jurisdiction', 'jurisdiction of the courts of Germany'],
  ['signature block', 'For the Controller'],
  ['signature line', 'Signature'],
  ['Annex I', 'Annex I: Parties and description of the processing'],
  ['Annex II', 'Annex II: Technical and organisational measures'],
  ['Annex III', 'Annex III: Sub-processors'],
];

let app: App;
const texts = new Map<ExportFormat, string>();

beforeAll(async () => {
  app = createApp({ dataDir: ':memory:', env: {} });
  const document = generateDpaFromRequest(app, parseDpaRequest(sampleRequest()));
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
