/**
 * The small Markdown subset DPA content is written in, and its parser. Every export (HTML, PDF, DOCX) renders
 * the parsed blocks of the stored `content`, so an export always shows exactly the text that was stored.
 * Subset: `#`-`####` headings, paragraphs, `- ` bullet items, pipe tables (header + `---` separator), `---`
 * rules, `**bold**` and backslash escapes. User text enters only through `escapeMarkdown`, so it can never
 * open a heading, a table cell or a link.
 */
export type Run = { readonly text: string; readonly bold: boolean };
export type Inline = readonly Run[];
export type Block =
  | { readonly kind: 'heading'; readonly level: 1 | 2 | 3 | 4; readonly inline: Inline }
  | { readonly kind: 'paragraph'; readonly inline: Inline }
  | { readonly kind: 'list'; readonly items: readonly Inline[] }
  | { readonly kind: 'table'; readonly header: readonly Inline[]; readonly rows: readonly (readonly Inline[])[] }
  | { readonly kind: 'rule' };

const specials = /[\\`*_[\]<>#|~&]/g;
// A value starting like a list marker would nest a list when it follows "- " in CommonMark viewers.
const leadingMarker = /^([-+]|\d+[.)])/;

/** Makes user text literal inside a line of content; newlines become ", " (content lines are never user-split). */
export const escapeMarkdown = (value: string): string =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join(', ')
    .replace(specials, (char) => `\\${char}`)
    .replace(leadingMarker, (marker) => `${marker.slice(0, -1)}\\${marker.slice(-1)}`);

/** Parses `**bold**` and backslash escapes into runs of plain text. */
export const parseInline = (source: string): Inline => {
  const runs: Run[] = [];
  let text = '';
  let bold = false;
  const flush = () => {
    if (text.length > 0) runs.push({ text, bold });
    text = '';
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string;
    if (char === '\\' && i + 1 < source.length) {
      text += source[++i];
    } else if (char === '*' && source[i + 1] === '*') {
      flush();
      bold = !bold;
      i++;
    } else text += char;
  }
  flush();
  return runs;
};

/** Splits a table row on unescaped pipes, dropping the outer ones. */
const splitRow = (line: string): string[] => {
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i] as string;
    if (char === '\\' && i + 1 < line.length) {
      cell += char + line[++i];
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells.slice(1, -1);
};

const headingPattern = /^(#{1,4}) (.*)$/;

/** Parses DPA Markdown into blocks. */
export const parseMarkdown = (content: string): Block[] => {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;
  const take = (matches: (line: string) => boolean): string[] => {
    const taken: string[] = [];
    while (i < lines.length && matches(lines[i] as string)) taken.push(lines[i++] as string);
    return taken;
  };
  while (i < lines.length) {
    const line = lines[i] as string;
    const heading = headingPattern.exec(line);
    if (line.trim() === '') i++;
    else if (heading) {
      blocks.push({ kind: 'heading', level: (heading[1] as string).length as 1 | 2 | 3 | 4, inline: parseInline(heading[2] as string) });
      i++;
    } else if (line.trim() === '---') {
      blocks.push({ kind: 'rule' });
      i++;
    } else if (line.startsWith('- ')) {
      blocks.push({ kind: 'list', items: take((l) => l.startsWith('- ')).map((l) => parseInline(l.slice(2))) });
    } else if (line.startsWith('|')) {
      const [header = '', , ...rows] = take((l) => l.startsWith('|'));
      blocks.push({
        kind: 'table',
        header: splitRow(header).map(parseInline),
        rows: rows.map((row) => splitRow(row).map(parseInline)),
      });
    } else {
      const paragraph = take((l) => l.trim() !== '' && !headingPattern.test(l) && !l.startsWith('- ') && !l.startsWith('|'));
      blocks.push({ kind: 'paragraph', inline: parseInline(paragraph.join(' ')) });
    }
  }
  return blocks;
};

/** The plain text of some inline runs. */
export const plainText = (inline: Inline): string => inline.map((run) => run.text).join('');
