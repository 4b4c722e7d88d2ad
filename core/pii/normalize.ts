/**
 * Scan-time normalisation against obfuscated PII (`john\u200b@example.com`, full-width digits, a card number
 * split by zero-width spaces, an address written backwards behind a right-to-left override).
 *
 * Recognizers run on a *view* of the text: Unicode default-ignorable code points (zero-width and bidi controls,
 * soft hyphen, variation selectors, tags…) removed and each character cluster (a base character plus its
 * combining marks) folded with NFKC. Every view keeps, per UTF-16 unit of the view, the original range that
 * produced it, so a finding maps back to the ORIGINAL text and covers the invisible characters inside its span.
 *
 * Views: the logical one always; when the text holds a right-to-left override (U+202E) also a visual one in
 * which each override run (up to its PDF U+202C, PDI U+2069, a line break or the end) is reversed, the order a
 * reader sees. Both are scanned and their findings merged (engine.ts).
 */

/** Characters a reader never sees (Unicode's Default_Ignorable_Code_Point covers U+00AD, U+200B–U+200F,
 * U+202A–U+202E, U+2060–U+206F, U+FEFF, U+FE00–U+FE0F, U+E0000–U+E0FFF…). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const IGNORABLE_GLOBAL = /\p{Default_Ignorable_Code_Point}/gu;
const MARK = /^\p{M}$/u;
const RLO = 0x202e;
/** What ends a right-to-left override run (PDF, PDI, a line break). */
const RLO_END = new Set([0x202c, 0x2069, 0x0a, 0x0d, 0x2029]);

/** One scanned form of the text; `toOriginal` maps a UTF-16 span of `text` to a UTF-16 span of the original. */
export type TextView = {
  readonly text: string;
  readonly toOriginal: (start: number, end: number) => readonly [number, number];
};

const identityView = (text: string): TextView => ({ text, toOriginal: (start, end) => [start, end] });

/** UTF-16 length of the code point at `i` (2 for a well-formed surrogate pair). */
const codePointLength = (text: string, i: number): number => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
};
/** Combining marks start at U+0300, so ASCII text never pays the regex test. */
const isMarkAt = (text: string, i: number): boolean =>
  text.charCodeAt(i) >= 0x300 && MARK.test(text.slice(i, i + codePointLength(text, i)));
/** End of the cluster starting at `i`: the code point and the combining marks after it. */
const clusterEnd = (text: string, i: number): number => {
  let j = i + codePointLength(text, i);
  while (j < text.length && isMarkAt(text, j)) j += codePointLength(text, j);
  return j;
};

/** Folds one cluster: ignorable code points dropped, the rest NFKC-normalised. */
const foldCluster = (cluster: string): string => {
  const visible = IGNORABLE.test(cluster) ? cluster.replace(IGNORABLE_GLOBAL, '') : cluster;
  return visible.normalize('NFKC');
};

/** Folded form of single-unit clusters seen so far (a text repeats few distinct characters). */
const foldedUnits = new Map<number, string>();

/** `foldCluster`, memoised for single-unit clusters. */
const fold = (cluster: string): string => {
  if (cluster.length === 1) {
    const code = cluster.charCodeAt(0);
    let folded = foldedUnits.get(code);
    if (folded === undefined) {
      folded = foldCluster(cluster);
      if (foldedUnits.size < 4096) foldedUnits.set(code, folded);
    }
    return folded;
  }
  return foldCluster(cluster);
};

/** Accumulates a view cluster by cluster, recording for each output unit the original range it came from. */
const viewBuilder = (original: string) => {
  const parts: string[] = [];
  let starts = new Uint32Array(original.length + 16);
  let ends = new Uint32Array(original.length + 16);
  let length = 0;
  const reserve = (extra: number): void => {
    if (length + extra <= starts.length) return;
    const grown = (n: Uint32Array) => {
      const next = new Uint32Array((length + extra) * 2);
      next.set(n);
      return next;
    };
    starts = grown(starts);
    ends = grown(ends);
  };
  /** A cluster that may need folding. */
  const add = (start: number, end: number): void => {
    const out = fold(original.slice(start, end));
    reserve(out.length);
    starts.fill(start, length, length + out.length);
    ends.fill(end, length, length + out.length);
    length += out.length;
    parts.push(out);
  };
  /** A run of plain ASCII (no marks follow): copied as is, unit for unit. */
  const addAscii = (start: number, end: number): void => {
    reserve(end - start);
    for (let k = start; k < end; k++, length++) {
      starts[length] = k;
      ends[length] = k + 1;
    }
    parts.push(original.slice(start, end));
  };
  const build = (): TextView => {
    const text = parts.join('');
    const toOriginal = (start: number, end: number): readonly [number, number] => {
      // Spans are short; min/max also covers the visual view, where an override run maps backwards.
      let lo = Number.POSITIVE_INFINITY;
      let hi = 0;
      for (let k = start; k < end; k++) {
        lo = Math.min(lo, starts[k] ?? lo);
        hi = Math.max(hi, ends[k] ?? hi);
      }
      return lo === Number.POSITIVE_INFINITY ? [start, end] : [lo, hi];
    };
    return { text, toOriginal };
  };
  return { add, addAscii, build };
};

/** The normalised view in logical order; ASCII runs are copied in one piece. */
const logicalView = (text: string): TextView => {
  const view = viewBuilder(text);
  let ascii = 0;
  for (let i = 0; i < text.length; ) {
    if (text.charCodeAt(i) < 0x80 && (i + 1 >= text.length || text.charCodeAt(i + 1) < 0x300)) {
      i++;
      continue;
    }
    if (ascii < i) view.addAscii(ascii, i);
    const end = clusterEnd(text, i);
    view.add(i, end);
    i = end;
    ascii = i;
  }
  if (ascii < text.length) view.addAscii(ascii, text.length);
  return view.build();
};

/** The normalised view in reading order: each right-to-left override run reversed cluster by cluster. */
const visualView = (text: string): TextView => {
  const view = viewBuilder(text);
  let run: Array<[number, number]> | null = null;
  const closeRun = (): void => {
    for (const [start, end] of (run ?? []).reverse()) view.add(start, end);
    run = null;
  };
  for (let i = 0; i < text.length; ) {
    const end = clusterEnd(text, i);
    const code = text.charCodeAt(i);
    if (run !== null && RLO_END.has(code)) closeRun();
    if (code === RLO) {
      closeRun();
      run = [];
    } else if (run !== null) run.push([i, end]);
    else view.add(i, end);
    i = end;
  }
  closeRun();
  return view.build();
};

/** True when the text holds something the normalisation removes or folds. */
export const needsNormalisation = (text: string): boolean => IGNORABLE.test(text) || text.normalize('NFKC') !== text;

/**
 * The views to scan: one identity view for plain text (no copy, no map), else the normalised logical view and,
 * when there is a right-to-left override, the visual one. `changed` says whether normalisation altered the text.
 */
export const scanViews = (text: string): { readonly views: readonly TextView[]; readonly changed: boolean } => {
  if (!needsNormalisation(text)) return { views: [identityView(text)], changed: false };
  const views = text.includes('\u202e') ? [logicalView(text), visualView(text)] : [logicalView(text)];
  return { views, changed: true };
};
