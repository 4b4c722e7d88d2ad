/**
 * Names the sentence splitter and tagger cut apart: after an honorific (`Dr. Jane A. Smith`, `Mr John Smith`)
 * and with initials (`J. R. R. Tolkien`, `George W. Bush`). The dot of an initial or of `Dr.` reads as a sentence
 * end, so compromise sees "Jane" and "Smith" separately; these spans cover the whole name and win over the
 * pieces (same-type overlaps keep the longest). The honorific itself is not part of the span, as with spaCy.
 */
import nlp from 'compromise/two';
import type { NerSpan } from './compromise-ner.ts';

const lexicon = (nlp.world() as { model: { one: { lexicon: Record<string, string | string[]> } } }).model.one.lexicon;
const tagsOf = (word: string): readonly string[] => {
  const tags = lexicon[word.toLowerCase()];
  return tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
};
const NAME_TAGS = new Set(['MaleName', 'FemaleName', 'FirstName', 'LastName', 'Person']);
const isGivenName = (word: string): boolean => tagsOf(word).some((t) => t === 'MaleName' || t === 'FemaleName' || t === 'FirstName');
/** A surname: a name compromise knows, or a capitalised word it does not know at all ("Tolkien"). */
const isSurname = (word: string): boolean => {
  const tags = tagsOf(word);
  return tags.length === 0 || tags.some((t) => NAME_TAGS.has(t));
};

const WORD = "\\p{Lu}[\\p{L}'’\\-]{0,30}\\p{Ll}";
const INITIAL = '\\p{Lu}\\.';
const HONORIFIC = 'Mr|Mrs|Ms|Miss|Mx|Dr|Prof|Sir|Dame|Lord|Lady|Rev|Revd|Fr|Capt|Col|Gen|Lt|Sgt|Hon|Judge';
/** Honorific, then up to three given names or initials, then a surname. */
const AFTER_HONORIFIC = new RegExp(`(?<!\\p{L})(?:${HONORIFIC})\\.?\\s+((?:(?:${WORD}|${INITIAL})\\s+){0,3}${WORD})(?!\\p{L})`, 'dgu');
/** Two or three initials then a surname ("J. R. R. Tolkien", "J.K. Rowling"). */
const INITIALS = new RegExp(`(?<![\\p{L}.])((?:${INITIAL}\\s?){2,3}(${WORD}))(?!\\p{L})`, 'dgu');
/** A given name, one or two initials, a surname ("George W. Bush"). */
const GIVEN_INITIAL = new RegExp(`(?<!\\p{L})((${WORD})\\s+(?:${INITIAL}\\s+){1,2}(${WORD}))(?!\\p{L})`, 'dgu');

/** `exec` from lastIndex 0 rather than `matchAll`, which copies the regex on every call (three per sentence). */
const spansOf = (text: string, regex: RegExp, accept: (m: RegExpExecArray) => boolean): NerSpan[] => {
  const spans: NerSpan[] = [];
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    const span = m.indices?.[1];
    if (span && accept(m)) spans.push({ type: 'PERSON', start: span[0], end: span[1] });
  }
  return spans;
};

/** PERSON spans (UTF-16) of names with honorifics or initials. */
export const titledNameSpans = (text: string): NerSpan[] => [
  ...spansOf(text, AFTER_HONORIFIC, (m) => isSurname(m[1]?.split(/\s+/).at(-1) ?? '')),
  ...spansOf(text, INITIALS, (m) => isSurname(m[2] ?? '')),
  ...spansOf(text, GIVEN_INITIAL, (m) => isGivenName(m[2] ?? '') && isSurname(m[3] ?? '')),
];
