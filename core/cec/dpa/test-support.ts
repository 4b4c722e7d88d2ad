import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';
import type { DpaRequestInput } from './input.ts';

const run = promisify(execFile);

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

/** Text of a PDF through poppler's pdftotext, whitespace collapsed. */
export const pdfToText = async (pdf: Buffer): Promise<string> => {
  const dir = await mkdtemp(join(tmpdir(), 'dpa-pdf-'));
  try {
    const file = join(dir, 'in.pdf');
    await writeFile(file, pdf);
    const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    return collapse(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
