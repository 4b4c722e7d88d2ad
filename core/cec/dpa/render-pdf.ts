import PDFDocument from 'pdfkit';
import { missingCase } from '../../errors.ts';
import type { PdfFonts } from './fonts.ts';
import { type Block, type Inline, parseMarkdown, plainText } from './markdown.ts';
import { coverText, type GlyphCoverage, splitDirectionalRuns, winAnsiCoverage } from './pdf-text.ts';

export type PdfMeta = { readonly title: string; readonly footer: string; readonly createdAt: Date };

type Face = { readonly name: string; readonly covers: GlyphCoverage };
type Faces = { readonly regular: Face; readonly bold: Face };
type Doc = PDFKit.PDFDocument;

const margin = 60;
const bodySize = 10;
const headingSizes = { 1: 18, 2: 13, 3: 11, 4: 10.5 } as const;

// pdfkit keeps the fontkit font of the current face on a private field; it is the only way to ask for coverage.
const coverageOf = (doc: Doc, name: string): GlyphCoverage => {
  doc.font(name);
  const face: unknown = Reflect.get(doc, '_font');
  const font: unknown = typeof face === 'object' && face !== null ? Reflect.get(face, 'font') : undefined;
  if (typeof font !== 'object' || font === null) return winAnsiCoverage;
  const hasGlyph: unknown = Reflect.get(font, 'hasGlyphForCodePoint');
  return typeof hasGlyph === 'function' ? (cp) => hasGlyph.call(font, cp) === true : winAnsiCoverage;
};

const loadFaces = (doc: Doc, fonts: PdfFonts): Faces => {
  if (fonts === null) {
    return { regular: { name: 'Helvetica', covers: winAnsiCoverage }, bold: { name: 'Helvetica-Bold', covers: winAnsiCoverage } };
  }
  doc.registerFont('dpa-regular', fonts.regular);
  doc.registerFont('dpa-bold', fonts.bold);
  return {
    regular: { name: 'dpa-regular', covers: coverageOf(doc, 'dpa-regular') },
    bold: { name: 'dpa-bold', covers: coverageOf(doc, 'dpa-bold') },
  };
};

const contentWidth = (doc: Doc): number => doc.page.width - 2 * margin;
const bottom = (doc: Doc): number => doc.page.height - margin;

/** Writes inline runs as one flowing paragraph at (x, current y). */
const writeInline = (doc: Doc, faces: Faces, inline: Inline, x: number, width: number, size: number, forceBold = false) => {
  const fragments = inline.flatMap((run) => {
    const face = run.bold || forceBold ? faces.bold : faces.regular;
    return splitDirectionalRuns(coverText(run.text, face.covers)).map((part) => ({ ...part, face }));
  });
  if (fragments.length === 0) fragments.push({ text: ' ', rtl: false, face: faces.regular });
  const y = doc.y;
  fragments.forEach((fragment, index) => {
    doc.font(fragment.face.name).fontSize(size);
    // pdfkit shapes word by word unless OpenType features are given; an RTL run must be shaped as a whole so
    // fontkit reverses the words as well as the letters.
    const options = { width, continued: index < fragments.length - 1, lineGap: 2, ...(fragment.rtl ? { features: [] } : {}) };
    if (index === 0) doc.text(fragment.text, x, y, options);
    else doc.text(fragment.text, options);
  });
};

const ensureRoom = (doc: Doc, height: number): void => {
  if (doc.y + height > bottom(doc)) doc.addPage();
};

const columnWidths = (doc: Doc, count: number): number[] => {
  const width = contentWidth(doc);
  if (count <= 1) return [width];
  const first = Math.round(width * (count === 2 ? 0.3 : 0.24));
  return [first, ...Array.from({ length: count - 1 }, () => (width - first) / (count - 1))];
};

const drawTable = (doc: Doc, faces: Faces, header: readonly Inline[], rows: readonly (readonly Inline[])[]) => {
  const widths = columnWidths(doc, header.length);
  const pad = 4;
  const drawRow = (cells: readonly Inline[], isHeader: boolean) => {
    doc.font(isHeader ? faces.bold.name : faces.regular.name).fontSize(bodySize - 0.5);
    const textHeights = cells.map((cell, i) =>
      doc.heightOfString(plainText(cell) || ' ', { width: (widths[i] ?? 0) - 2 * pad, lineGap: 2 }),
    );
    // An empty cell in a body row is a place to sign or write by hand: give it room.
    const minimum = !isHeader && cells.some((cell) => plainText(cell).trim() === '') ? 34 : 18;
    const height = Math.max(minimum, ...textHeights.map((h) => h + 2 * pad));
    ensureRoom(doc, height);
    const top = doc.y;
    let x = margin;
    cells.forEach((cell, i) => {
      const width = widths[i] ?? 0;
      doc.rect(x, top, width, height).lineWidth(0.5).strokeColor('#888888').stroke();
      doc.y = top + pad;
      writeInline(doc, faces, cell, x + pad, width - 2 * pad, bodySize - 0.5, isHeader);
      x += width;
    });
    doc.x = margin;
    doc.y = top + height;
  };
  drawRow(header, true);
  for (const row of rows) drawRow(row, false);
  doc.moveDown(0.6);
};

const drawBlock = (doc: Doc, faces: Faces, block: Block): void => {
  const width = contentWidth(doc);
  switch (block.kind) {
    case 'heading':
      ensureRoom(doc, 70);
      if (block.level <= 2) doc.moveDown(0.5);
      writeInline(doc, faces, block.inline, margin, width, headingSizes[block.level], true);
      doc.moveDown(0.4);
      return;
    case 'paragraph':
      writeInline(doc, faces, block.inline, margin, width, bodySize);
      doc.moveDown(0.6);
      return;
    case 'list':
      for (const item of block.items) {
        ensureRoom(doc, 16);
        const top = doc.y;
        doc
          .font(faces.regular.name)
          .fontSize(bodySize)
          .text('•', margin + 4, top, { lineBreak: false });
        doc.y = top;
        writeInline(doc, faces, item, margin + 16, width - 16, bodySize);
        doc.moveDown(0.3);
      }
      doc.moveDown(0.3);
      return;
    case 'table':
      drawTable(doc, faces, block.header, block.rows);
      return;
    case 'rule':
      doc
        .moveTo(margin, doc.y)
        .lineTo(margin + width, doc.y)
        .lineWidth(0.5)
        .stroke();
      doc.moveDown(0.6);
      return;
    default:
      missingCase(block);
  }
};

const drawPageNumbers = (doc: Doc, faces: Faces, footer: string): void => {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing below the bottom margin would make pdfkit open a new page; lift the margin while we write there.
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font(faces.regular.name).fontSize(8).fillColor('#555555');
    const label = coverText(`${footer} · Page ${i + 1} of ${range.count}`, faces.regular.covers);
    doc.text(label, margin, doc.page.height - margin / 2 - 4, { width: contentWidth(doc), align: 'center', lineBreak: false });
    doc.fillColor('#000000');
    doc.page.margins.bottom = saved;
  }
};

/** Renders DPA Markdown to a PDF (A4, embedded Unicode font when available, page numbers, signature table). */
export const renderDpaPdf = (content: string, fonts: PdfFonts, meta: PdfMeta): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: 'A4',
      margin,
      bufferPages: true,
      info: { Title: meta.title, Creator: 'Compliance Workbench', CreationDate: meta.createdAt },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const faces = loadFaces(doc, fonts);
      for (const block of parseMarkdown(content)) drawBlock(doc, faces, block);
      drawPageNumbers(doc, faces, meta.footer);
      doc.end();
    } catch (error) {
      reject(error);
    }
  });
