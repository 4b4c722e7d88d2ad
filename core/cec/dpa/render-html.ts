import { missingCase } from '../../errors.ts';
import { type Block, type Inline, parseMarkdown } from './markdown.ts';

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

const inlineHtml = (inline: Inline): string =>
  inline.map((run) => (run.bold ? `<strong>${escapeHtml(run.text)}</strong>` : escapeHtml(run.text))).join('');

const blockHtml = (block: Block): string => {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${inlineHtml(block.inline)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${inlineHtml(block.inline)}</p>`;
    case 'list':
      return `<ul>\n${block.items.map((item) => `<li>${inlineHtml(item)}</li>`).join('\n')}\n</ul>`;
    case 'table': {
      const head = block.header.map((cell) => `<th scope="col">${inlineHtml(cell)}</th>`).join('');
      const rows = block.rows.map((row) => `<tr>${row.map((cell) => `<td>${inlineHtml(cell)}</td>`).join('')}</tr>`);
      return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`;
    }
    case 'rule':
      return '<hr>';
    default:
      return missingCase(block);
  }
};

const styles = `body{font-family:"DejaVu Sans",Arial,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
h1{font-size:1.6rem}h2{font-size:1.2rem;margin-top:1.6rem}h3{font-size:1.05rem}
table{border-collapse:collapse;width:100%;margin:0.5rem 0}th,td{border:1px solid #999;padding:0.3rem 0.5rem;text-align:start;vertical-align:top}
td:empty{height:2rem}`;

/**
 * A standalone HTML page of DPA Markdown. All text is escaped (the Markdown subset has no raw HTML), so the
 * page carries no markup or script from user input; the CSP forbids scripts anyway.
 */
export const renderDpaHtml = (content: string, title = 'Data Processing Agreement'): string =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(title)}</title>`,
    `<style>${styles}</style>`,
    '</head>',
    '<body>',
    ...parseMarkdown(content).map(blockHtml),
    '</body>',
    '</html>',
    '',
  ].join('\n');
