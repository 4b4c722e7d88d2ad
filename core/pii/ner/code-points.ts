const surrogate = /[\uD800-\uDFFF]/;

/**
 * Maps UTF-16 indexes of `text` to Unicode code point indexes (the product's offset unit, like Presidio).
 * Returns the identity when the text has no surrogate, which is the common case and costs nothing.
 */
export const utf16ToCodePoints = (text: string): ((index: number) => number) => {
  if (!surrogate.test(text)) return (index) => index;
  const table = new Uint32Array(text.length + 1);
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = points;
    const unit = text.charCodeAt(i);
    const pairsWithNext =
      unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pairsWithNext) table[++i] = points;
    points++;
  }
  table[text.length] = points;
  return (index) => table[index] ?? points;
};
