/**
 * Text preparation for PDF: pdfkit draws glyphs, it does not fall back between fonts or run the Unicode
 * bidirectional algorithm. So (1) characters the embedded font lacks become U+FFFD (invisible format
 * characters are dropped) instead of empty boxes with no text behind them, and (2) right-to-left runs are
 * handed to pdfkit as separate fragments, which fontkit lays out right to left on their own.
 */
export type GlyphCoverage = (codePoint: number) => boolean;

const invisible = /[\p{Cf}\p{Variation_Selector}]/u;

/** Replaces what the font cannot draw; keeps everything it can. */
export const coverText = (text: string, hasGlyph: GlyphCoverage): string => {
  const replacement = hasGlyph(0xfffd) ? '\uFFFD' : '?';
  let out = '';
  for (const char of text) {
    const codePoint = char.codePointAt(0) as number;
    if (hasGlyph(codePoint)) out += char;
    else if (!invisible.test(char)) out += replacement;
  }
  return out;
};

// Windows-1252 repertoire of the standard PDF fonts, used only when no TrueType font is installed.
const winAnsiExtras = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ'].map((c) => c.codePointAt(0) as number));
export const winAnsiCoverage: GlyphCoverage = (cp) => (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || winAnsiExtras.has(cp);

const rtl = '\\p{Script=Hebrew}\\p{Script=Arabic}\\p{Script=Syriac}\\p{Script=Thaana}\\p{Script=Nko}';
const rtlRun = new RegExp(`[${rtl}]+(?:[\\s\\p{P}\\p{N}]+[${rtl}]+)*`, 'gu');

export type DirectionalRun = { readonly text: string; readonly rtl: boolean };

/** Splits text into alternating left-to-right and right-to-left fragments, in logical order. */
export const splitDirectionalRuns = (text: string): DirectionalRun[] => {
  const parts: DirectionalRun[] = [];
  let last = 0;
  for (const match of text.matchAll(rtlRun)) {
    const start = match.index;
    if (start > last) parts.push({ text: text.slice(last, start), rtl: false });
    parts.push({ text: match[0], rtl: true });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), rtl: false });
  return parts;
};
