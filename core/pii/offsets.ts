/** UTF-16 ↔ code-point offset conversion (findings leave the engine in code points, like Presidio). */

const SURROGATE = /[\uD800-\uDFFF]/;

/** Returns a function mapping a UTF-16 index of `text` to its code-point index (identity for BMP-only text). */
export const utf16ToCodePointMapper = (text: string): ((index: number) => number) => {
  if (!SURROGATE.test(text)) return (index) => index;
  const map = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    map[i] = cp;
    const c = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point: its second unit maps to the same index.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        map[i + 1] = cp;
        i++;
      }
    }
    cp++;
  }
  map[text.length] = cp;
  return (index) => map[index] ?? cp;
};

/** Code points in `text` (what `[...text].length` counts), without an array per character. */
export const codePointCount = (text: string): number => utf16ToCodePointMapper(text)(text.length);

/** Returns a function mapping a code-point index of `text` to its UTF-16 index. */
export const codePointToUtf16Mapper = (text: string): ((index: number) => number) => {
  if (!SURROGATE.test(text)) return (index) => index;
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    starts.push(i);
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
  }
  return (index) => starts[index] ?? text.length;
};
