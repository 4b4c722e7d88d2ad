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
/** One cluster: a base code point with its combining marks, or a run of marks with no base. */
const CLUSTER = /[^\p{M}]\p{M}*|\p{M}+/gsu;
const RLO = '\u202E';
/** What ends a right-to-left override run (PDF, PDI, a line break). */
const RLO_END = /[\u202C\u2069\n\r\u2029]/;

/** One scanned form of the text; `toOriginal` maps a UTF-16 span of `text` to a UTF-16 span of the original. */
export type TextView = {
  readonly text: string;
  readonly toOriginal: (start: number, end: number) => readonly [number, number];
};

type Unit = { readonly out: string; readonly start: number; readonly end: number };

const identityView = (text: string): TextView => ({ text, toOriginal: (start, end) => [start, end] });

/** Folds one cluster: ignorable code points dropped, the rest NFKC-normalised. */
const fold = (cluster: string): string => {
  const visible = IGNORABLE.test(cluster) ? cluster.replace(IGNORABLE_GLOBAL, '') : cluster;
  return visible.normalize('NFKC');
};

const unitsOf = (text: string): Unit[] => {
  const units: Unit[] = [];
  for (const m of text.matchAll(CLUSTER)) units.push({ out: fold(m[0]), start: m.index, end: m.index + m[0].length });
  return units;
};

const viewOf = (units: readonly Unit[]): TextView => {
  const text = units.map((u) => u.out).join('');
  const starts = new Uint32Array(text.length);
  const ends = new Uint32Array(text.length);
  let i = 0;
  for (const u of units) {
    for (let k = 0; k < u.out.length; k++, i++) {
      starts[i] = u.start;
      ends[i] = u.end;
    }
  }
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

/** Units in reading order: each right-to-left override run reversed (cluster by cluster). */
const visualOrder = (text: string, units: readonly Unit[]): Unit[] => {
  const ordered: Unit[] = [];
  let run: Unit[] | null = null;
  for (const u of units) {
    const raw = text.slice(u.start, u.end);
    if (run !== null && RLO_END.test(raw)) {
      ordered.push(...run.reverse());
      run = null;
    }
    if (raw.startsWith(RLO)) {
      if (run !== null) ordered.push(...run.reverse());
      run = [];
      continue;
    }
    if (run === null) ordered.push(u);
    else run.push(u);
  }
  if (run !== null) ordered.push(...run.reverse());
  return ordered;
};

/** True when the text holds something the normalisation removes or folds. */
export const needsNormalisation = (text: string): boolean => IGNORABLE.test(text) || text.normalize('NFKC') !== text;

/**
 * The views to scan: one identity view for plain text (no copy, no map), else the normalised logical view and,
 * when there is a right-to-left override, the visual one. `changed` says whether normalisation altered the text.
 */
export const scanViews = (text: string): { readonly views: readonly TextView[]; readonly changed: boolean } => {
  if (!needsNormalisation(text)) return { views: [identityView(text)], changed: false };
  const units = unitsOf(text);
  const logical = viewOf(units);
  const views = text.includes(RLO) ? [logical, viewOf(visualOrder(text, units))] : [logical];
  return { views, changed: true };
};
