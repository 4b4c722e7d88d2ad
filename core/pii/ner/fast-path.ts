import nlp from 'compromise/two';
import type { NerSpan } from './compromise-ner.ts';
import { startsCapitalised } from './segments.ts';

const lexicon = (nlp.world() as { model: { one: { lexicon: Record<string, string | string[]> } } }).model.one.lexicon;
const personTags = new Set(['MaleName', 'FemaleName', 'FirstName', 'LastName']);
const placeTags = new Set(['City', 'Country', 'Region']);

type WordKind = 'person' | 'place' | 'honorific' | 'other' | 'unsure';

/** What the lexicon alone says a capitalised word is; `unsure` when only the tagger can tell (unknown or ambiguous). */
const kindOf = (word: string): WordKind => {
  const entry = lexicon[word.toLowerCase()];
  if (entry === undefined) return 'unsure';
  const tags = Array.isArray(entry) ? entry : [entry];
  if (tags.includes('Honorific')) return 'honorific';
  const person = tags.some((tag) => personTags.has(tag));
  const place = tags.some((tag) => placeTags.has(tag));
  if (person && !place && tags.every((tag) => personTags.has(tag))) return 'person';
  if (place && !person && tags.every((tag) => placeTags.has(tag))) return 'place';
  if (person || place || tags.some((tag) => tag === 'Person' || tag === 'Place' || tag === 'ProperNoun' || tag === 'Demonym')) {
    return 'unsure';
  }
  return 'other';
};

const isCalendarWord = (word: string): boolean => {
  const entry = lexicon[word.toLowerCase()];
  const tags = entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
  return tags.some((tag) => tag === 'WeekDay' || tag === 'Month' || tag === 'Date' || tag === 'Holiday');
};

type Word = { readonly text: string; readonly start: number; readonly end: number; readonly kind: WordKind };

/**
 * Module-level, not literals in the function: esbuild (tsx, the CLI and Electron builds) turns a `\p{…}` literal
 * into `new RegExp(…)`, parsed again on every evaluation (per word here). WORD is global and used with exec from
 * lastIndex 0 (matchAll would copy it per sentence); it never matches the empty string.
 */
const WORD = /\p{L}[\p{L}'’-]*/gu;

/**
 * PERSON and LOCATION spans of a sentence from compromise's lexicon alone, or null when a capitalised word is
 * unknown or ambiguous and the tagger must decide. Most sentences with names name well-known first names,
 * surnames and cities; this skips the tagger (about 1 ms a sentence) for them.
 */
export const lexiconSpans = (sentence: string): NerSpan[] | null => {
  const words: Word[] = [];
  let index = 0;
  WORD.lastIndex = 0;
  for (let match = WORD.exec(sentence); match !== null; match = WORD.exec(sentence)) {
    const text = match[0];
    const capitalised = startsCapitalised(text);
    const first = index++ === 0;
    if (!capitalised) {
      words.push({ text, start: match.index, end: match.index + text.length, kind: 'other' });
      continue;
    }
    const bare = text.replace(/['’]s$/, '');
    const kind = kindOf(bare);
    // A capital at the start of a sentence says nothing. Elsewhere a capitalised common word ("Hall", "Green",
    // "Queens") is most likely part of a name, which only the tagger can judge; days and months are just dates.
    const settled = kind !== 'other' || first || isCalendarWord(bare) ? kind : 'unsure';
    words.push({ text, start: match.index, end: match.index + text.length, kind: settled });
  }
  if (words.some((word) => word.kind === 'unsure')) return null;
  const spans: NerSpan[] = [];
  let run: Word[] = [];
  const close = (): boolean => {
    const kinds = new Set(run.map((word) => word.kind));
    const first = run[0];
    const last = run[run.length - 1];
    run = [];
    if (first === undefined || last === undefined) return true;
    if (kinds.size > 1) return false;
    spans.push({ type: kinds.has('person') ? 'PERSON' : 'LOCATION', start: first.start, end: last.end });
    return true;
  };
  for (const [i, word] of words.entries()) {
    const previous = words[i - 1];
    const adjacent = previous !== undefined && /^ $/.test(sentence.slice(previous.end, word.start));
    if (word.kind === 'person' || word.kind === 'place') {
      if (run.length > 0 && !adjacent && !close()) return null;
      run.push(word);
    } else if (run.length > 0 && !close()) return null;
  }
  return close() ? spans : null;
};
