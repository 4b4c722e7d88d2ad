import { extractText } from 'unpdf';
import yauzl from 'yauzl';
import type { DpaRequestInput } from '../../contracts/dpa.ts';

/** A complete, valid request in wire shape. */
export const sampleRequest = (): DpaRequestInput => ({
  project_id: 'credit-model',
  controller_details: { name: 'Acme Lending GmbH', address: 'Hauptstraße 1\n10115 Berlin, Germany', contact: 'dpo@acme.example' },
  processor_details: { name: 'ModelOps Ltd', address: '2 Dock Road, Dublin, Ireland', contact: 'privacy@modelops.example' },
  subject_categories: ['Loan applicants', 'Employees of the Controller'],
  transfer_mechanisms: ['SCC 2021/914 Module Two (controller to processor)', 'adequacy_decision'],
  retention_period_days: 90,
  law_of_contract: 'DE',
});

/** Issue 5 "Done when": one entry per required element, checked in every export format (for `sampleRequest`). */
export const dpaChecklist: readonly (readonly [element: string, expected: string])[] = [
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

/** Text of a PDF through Mozilla's pdf.js (unpdf), an independent reader; pages joined, whitespace collapsed. */
export const pdfToText = async (pdf: Buffer): Promise<string> => {
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  return collapse(text);
};

/** One entry of a ZIP, read with yauzl (which refuses malformed archives). */
export const readZipEntry = (zip: Buffer, name: string): Promise<string> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, archive) => {
      if (error) return reject(error);
      archive.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return archive.readEntry();
        archive.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            archive.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          stream.on('error', reject);
        });
      });
      archive.on('end', () => reject(new Error(`${name} not in the archive`)));
      archive.on('error', reject);
      archive.readEntry();
    });
  });

const decodeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');

/** The text of word/document.xml: every w:t, paragraphs separated by spaces. */
export const docxToText = async (docx: Buffer): Promise<string> => {
  const xml = await readZipEntry(docx, 'word/document.xml');
  const paragraphs = xml.split('</w:p>').map((p) => [...p.matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''));
  return collapse(decodeXml(paragraphs.join(' ')));
};

/** The visible text of an HTML export. */
export const htmlToText = (html: string): string =>
  collapse(decodeXml(html.replace(/<(style|title)>[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ')));

export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();
