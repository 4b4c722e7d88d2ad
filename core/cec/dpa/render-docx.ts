import {
  AlignmentType,
  Document,
  Footer,
  HeadingLevel,
  Packer,
  PageNumber,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  WidthType,
} from 'docx';
import { missingCase } from '../../errors.ts';
import { type Block, type Inline, parseMarkdown } from './markdown.ts';

export type DocxMeta = { readonly title: string; readonly footer: string };

// Characters XML 1.0 cannot carry; input validation refuses them, this is the last line of defence.
const xmlInvalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const headingLevels = {
  1: HeadingLevel.HEADING_1,
  2: HeadingLevel.HEADING_2,
  3: HeadingLevel.HEADING_3,
  4: HeadingLevel.HEADING_4,
} as const;

const runs = (inline: Inline, forceBold = false): TextRun[] =>
  inline.map((run) => new TextRun({ text: run.text.replace(xmlInvalid, ''), bold: run.bold || forceBold }));

const cell = (inline: Inline, isHeader: boolean): TableCell =>
  new TableCell({ children: [new Paragraph({ children: runs(inline, isHeader), spacing: { before: 40, after: 40 } })] });

const table = (header: readonly Inline[], rows: readonly (readonly Inline[])[]): Table =>
  new Table({
    width: { size: 100, type: WidthType.PERCENTAGE },
    rows: [
      new TableRow({ tableHeader: true, children: header.map((inline) => cell(inline, true)) }),
      ...rows.map((row) => new TableRow({ children: row.map((inline) => cell(inline, false)) })),
    ],
  });

const blockElements = (block: Block): (Paragraph | Table)[] => {
  switch (block.kind) {
    case 'heading':
      return [new Paragraph({ heading: headingLevels[block.level], children: runs(block.inline) })];
    case 'paragraph':
      return [new Paragraph({ children: runs(block.inline), spacing: { after: 120 } })];
    case 'list':
      return block.items.map((item) => new Paragraph({ bullet: { level: 0 }, children: runs(item), spacing: { after: 60 } }));
    case 'table':
      return [table(block.header, block.rows), new Paragraph({ children: [] })];
    case 'rule':
      return [new Paragraph({ border: { bottom: { style: 'single', size: 6, color: '888888', space: 1 } }, children: [] })];
    default:
      return missingCase(block);
  }
};

/** Renders DPA Markdown to a Word document with headings, bullet lists, tables and page numbers in the footer. */
export const renderDpaDocx = async (content: string, meta: DocxMeta): Promise<Buffer> => {
  const document = new Document({
    creator: 'Compliance Workbench',
    title: meta.title.replace(xmlInvalid, ''),
    sections: [
      {
        footers: {
          default: new Footer({
            children: [
              new Paragraph({
                alignment: AlignmentType.CENTER,
                children: [
                  new TextRun({
                    size: 16,
                    children: [`${meta.footer.replace(xmlInvalid, '')} · Page `, PageNumber.CURRENT, ' of ', PageNumber.TOTAL_PAGES],
                  }),
                ],
              }),
            ],
          }),
        },
        children: parseMarkdown(content).flatMap(blockElements),
      },
    ],
  });
  return Packer.toBuffer(document);
};
