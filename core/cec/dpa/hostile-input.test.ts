import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../app.ts';
import { appPerTest, testBackends } from '../../test-support/backends.ts';
import { assertWellFormedXml } from '../../test-support/xmllint.ts';
import { exportDpa } from './export.ts';
import { generateDpaFromRequest, parseDpaRequest } from './generate.ts';
import { parseMarkdown } from './markdown.ts';
import { renderDpaPdf } from './render-pdf.ts';
import { getDpa, listDpas } from './store.ts';
import { collapse, docxToText, htmlToText, pdfToText, readZipEntry, sampleRequest } from './test-support.ts';
import type { DPADocument } from './types.ts';

const hebrew = 'שלום עולם בע״מ';
const arabic = 'مرحبا بالعالم';
const markup = '<script>alert(1)</script> **bold** | pipe # hash [link](javascript:x) & co';
const longName = `Long ${'N'.repeat(195)}`;
const longAddress = Array.from({ length: 40 }, (_, i) => `Line ${i} of a long address`)
  .join('\n')
  .slice(0, 1000);

const hostileRequest = () =>
  parseDpaRequest({
    ...sampleRequest(),
    controller_details: { name: `${hebrew} 😀`, address: `${arabic}\nRiyadh`, contact: markup },
    processor_details: { name: longName, address: longAddress, contact: '数据 处理者 (CJK)' },
    subject_categories: ['- looks like a list item', '1. looks numbered', markup],
  });

describe.each(testBackends)('a DPA of hostile but valid input stored on $name', (backend) => {
  const t = appPerTest(backend);
  it('reads back exactly as generated, and the list shows the names the database extracts from its JSON', async () => {
    const { app } = t();
    const generated = await generateDpaFromRequest(app, hostileRequest());
    expect(await getDpa(app, generated.document_id)).toEqual(generated);
    expect(await listDpas(app)).toEqual([
      expect.objectContaining({ document_id: generated.document_id, controller_name: `${hebrew} 😀`, processor_name: longName }),
    ]);
  });
});

// The exports render the document as read back from storage; rendering itself never touches the database, so it
// runs once (the test above shows both back ends give the same document back).
let app: App;
let document: DPADocument;
beforeAll(async () => {
  app = createApp({ dataDir: ':memory:', env: {} });
  document = await getDpa(app, (await generateDpaFromRequest(app, hostileRequest())).document_id);
});
afterAll(() => app.close());

describe('DPA exports of hostile but valid input', () => {
  it('keeps user text literal in the Markdown structure', () => {
    const blocks = parseMarkdown(document.content);
    expect(blocks.filter((b) => b.kind === 'heading' && b.level === 1)).toHaveLength(1);
    const items = blocks.flatMap((b) => (b.kind === 'list' ? b.items.map((item) => item.map((r) => r.text).join('')) : []));
    expect(items).toEqual(expect.arrayContaining(['- looks like a list item', '1. looks numbered', markup]));
  });

  it('escapes everything in HTML', async () => {
    const html = (await exportDpa(app, document, 'html')).data.toString('utf8');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(htmlToText(html)).toContain(markup);
    expect(htmlToText(html)).toContain(hebrew);
  });

  it('renders RTL, emoji and long fields in the PDF; replaces glyphs the font lacks with U+FFFD', async () => {
    const text = await pdfToText((await exportDpa(app, document, 'pdf')).data);
    expect(text).toContain(hebrew);
    expect(text).toContain(arabic);
    expect(text).toContain(markup);
    expect(text).toContain(collapse(longAddress.split('\n').join(', ')));
    expect(text).toContain('\uFFFD\uFFFD \uFFFD\uFFFD\uFFFD (CJK)');
  });

  it('writes a DOCX whose XML parses back to the exact text', async () => {
    const text = await docxToText((await exportDpa(app, document, 'docx')).data);
    expect(text).toContain(`${hebrew} 😀`);
    expect(text).toContain('数据 处理者 (CJK)');
    expect(text).toContain(markup);
    expect(text).toContain(collapse(longName));
  });

  it('writes well-formed WordprocessingML (checked by libxml2)', async () => {
    const xml = await readZipEntry((await exportDpa(app, document, 'docx')).data, 'word/document.xml');
    await expect(assertWellFormedXml(xml)).resolves.toBeUndefined();
    await expect(assertWellFormedXml(xml.replace('</w:body>', ''))).rejects.toThrow(/not well-formed/);
  });

  it('still writes a readable PDF without a Unicode font, with "?" for what Latin-1 cannot show', async () => {
    const pdf = await renderDpaPdf(document.content, null, { title: 't', footer: 'f', createdAt: new Date(0) });
    const text = await pdfToText(pdf);
    expect(text).toContain('Annex III: Sub-processors');
    expect(text).toContain('???? ???? ???? ?');
    expect(text).toContain(markup);
  });
});
