import nlp from 'compromise/two';
import { nrpTerms } from './nrp-terms.ts';
import { lexiconSpans } from './fast-path.ts';
import { mayHoldName, segments, startsCapitalised } from './segments.ts';
import { titledNameSpans } from './titled-names.ts';

/** An entity span in UTF-16 units of the analysed text. */
export type NerSpan = { readonly type: 'PERSON' | 'LOCATION' | 'NRP'; readonly start: number; readonly end: number };

type JsonTerm = { text: string; post: string; tags: string[]; offset: { start: number; length: number } };
type JsonMatch = { terms: JsonTerm[] };

const termJson = { offset: true, terms: { offset: true } };
const lexicon = (nlp.world() as { model: { one: { lexicon: Record<string, string | string[]> } } }).model.one.lexicon;
const isGivenName = (word: string): boolean => {
  const tags = lexicon[word.toLowerCase()];
  return tags === 'MaleName' || tags === 'FemaleName' || (Array.isArray(tags) && tags.some((tag) => tag.endsWith('Name')));
};
// Module-level: esbuild turns a `\p{…}` literal into `new RegExp(…)`, parsed again on every evaluation.
const CAPITALISED_WORD_AND_NEXT = /\b\p{Lu}\p{Ll}+(?=(?: (\p{Lu}\p{Ll}+))?)/gu;
const isCapitalised = (term: JsonTerm): boolean => startsCapitalised(term.text);
/** Tags a word gets when compromise knows nothing about it except its position and capital letter. */
const unknownWordTags = new Set(['Noun', 'Singular', 'ProperNoun', 'Person', 'FirstName', 'LastName', 'MaleName', 'FemaleName']);

/**
 * Turns compromise's matches into spans: splits a match where punctuation separates two terms ("Paris, France"),
 * and trims terms that are not part of a name (honorifics like "Dr.", lower-case words such as "summer" in
 * "last summer James Wilson"), as Presidio's spaCy spans cover the name only.
 */
const runsOf = (matches: readonly JsonMatch[], keep: (term: JsonTerm) => boolean): JsonTerm[][] => {
  const runs: JsonTerm[][] = [];
  for (const match of matches) {
    let run: JsonTerm[] = [];
    const close = (): void => {
      if (run.length > 0) runs.push(run);
      run = [];
    };
    for (const term of match.terms) {
      if (keep(term) && term.offset.length > 0) run.push(term);
      else close();
      if (/[,;:()!?]/.test(term.post)) close();
    }
    close();
  }
  return runs;
};

const toSpan = (type: NerSpan['type'], run: readonly JsonTerm[]): NerSpan | undefined => {
  const first = run[0];
  const last = run[run.length - 1];
  if (first === undefined || last === undefined) return undefined;
  return { type, start: first.offset.start, end: last.offset.start + last.offset.length };
};

const nameTerm = (term: JsonTerm): boolean => isCapitalised(term) && !term.tags.includes('Honorific');

/** A "place" that starts with a known given name and has a second word ("Brian Hall") is a person. */
const looksLikePerson = (run: readonly JsonTerm[]): boolean => {
  const first = run[0];
  return run.length >= 2 && first !== undefined && isGivenName(first.text) && !run.some((t) => t.tags.includes('Country'));
};

/** Two or more adjacent capitalised words compromise knows nothing about ("Olusegun Adeyemi") read as a name. */
const unknownNameRuns = (sentences: readonly JsonMatch[]): JsonTerm[][] =>
  runsOf(sentences, (term) => isCapitalised(term) && term.tags.every((tag) => unknownWordTags.has(tag))).filter(
    (run) => run.length >= 2 && run.length <= 4,
  );

const isDemonym = (word: string): boolean => {
  const lower = word.toLowerCase();
  const tags = lexicon[lower] ?? (lower.endsWith('s') ? lexicon[lower.slice(0, -1)] : undefined);
  return tags === 'Demonym' || (Array.isArray(tags) && tags.includes('Demonym'));
};

/**
 * Nationalities (compromise's #Demonym lexicon) and religious or political group words, capitalised as English
 * writes group names ("a conservative estimate" is not one). A lexicon look-up, not the tagger: the tagger loses
 * the demonym tag when the word acts as an adjective ("the French choir").
 */
const nrpTermSpans = (text: string): NerSpan[] => {
  const spans: NerSpan[] = [];
  CAPITALISED_WORD_AND_NEXT.lastIndex = 0; // exec, not matchAll, which would copy the regex per call
  for (let match = CAPITALISED_WORD_AND_NEXT.exec(text); match !== null; match = CAPITALISED_WORD_AND_NEXT.exec(text)) {
    const word = match[0];
    const pair = match[1] === undefined ? '' : `${word} ${match[1]}`;
    const hit = pair !== '' && nrpTerms.has(pair.toLowerCase()) ? pair : nrpTerms.has(word.toLowerCase()) || isDemonym(word) ? word : '';
    if (hit !== '') spans.push({ type: 'NRP', start: match.index, end: match.index + hit.length });
  }
  return spans;
};

/** Same-type spans that overlap keep the longest ("Kwame Mensah" over "Kwame"); one sort and a sweep. */
const withoutOverlaps = (spans: readonly NerSpan[]): NerSpan[] => {
  const sorted = [...spans].sort((a, b) => a.type.localeCompare(b.type) || a.start - b.start || b.end - a.end);
  const kept: NerSpan[] = [];
  for (const span of sorted) {
    const last = kept[kept.length - 1];
    if (last === undefined || last.type !== span.type || span.start >= last.end) kept.push(span);
    else if (span.end - span.start > last.end - last.start) kept[kept.length - 1] = span;
  }
  return kept.sort((a, b) => a.start - b.start);
};

const shifted = (spans: readonly (NerSpan | undefined)[], offset: number): NerSpan[] =>
  spans
    .filter((span): span is NerSpan => span !== undefined)
    .map((span) => ({ ...span, start: span.start + offset, end: span.end + offset }));

/** PERSON and LOCATION spans of one sentence, by compromise's tagger plus the unknown-name heuristic. */
const taggedSpans = (sentence: string): (NerSpan | undefined)[] => {
  const sentences = nlp(sentence).json(termJson) as JsonMatch[];
  const tagged =
    (tag: string) =>
    (term: JsonTerm): boolean =>
      term.tags.includes(tag);
  const people = runsOf(sentences, (term) => tagged('Person')(term) && nameTerm(term));
  const placeRuns = runsOf(sentences, (term) => tagged('Place')(term) && isCapitalised(term));
  return [
    ...people.map((run) => toSpan('PERSON', run)),
    ...placeRuns.map((run) => toSpan(looksLikePerson(run) ? 'PERSON' : 'LOCATION', run)),
    ...unknownNameRuns(sentences).map((run) => toSpan('PERSON', run)),
  ];
};

/** Wall-clock budget of the tagger per text: past it the scan fails (500 scan_error) rather than hang or skip names. */
export const nerBudgetMs = 5_000;

/**
 * PERSON, LOCATION and NRP spans (UTF-16 offsets). The tagger runs sentence by sentence, only on sentences that
 * can hold a name (see segments.ts), each distinct sentence once; NRP words come from a lexicon look-up over the
 * whole text. Throws when tagging exceeds `budgetMs`: a scan must never skip names silently.
 */
export const findNamedEntities = (text: string, budgetMs = nerBudgetMs): NerSpan[] => {
  const deadline = performance.now() + budgetMs;
  const seen = new Map<string, (NerSpan | undefined)[]>();
  const spans: NerSpan[] = [];
  for (const segment of segments(text)) {
    // A repeated sentence (a template line, a signature, a disclaimer) is judged and tagged once.
    let tagged = seen.get(segment.text);
    if (tagged === undefined) {
      if (performance.now() > deadline) {
        throw new Error(
          `name recognition exceeded its ${budgetMs / 1000} s budget; scan a smaller text or leave out PERSON, LOCATION and NRP`,
        );
      }
      tagged = mayHoldName(segment.text) ? (lexiconSpans(segment.text) ?? taggedSpans(segment.text)) : [];
      seen.set(segment.text, tagged);
    }
    if (tagged.length > 0) spans.push(...shifted(tagged, segment.start));
  }
  return withoutOverlaps([...spans, ...nrpTermSpans(text), ...titledNameSpans(text)]);
};
