import nlp from 'compromise/two';
import { codePointCount } from '../offsets.ts';

/** A piece of the text the tagger runs on, with its UTF-16 offset in the whole text. */
export type Segment = { readonly start: number; readonly text: string };

/** Longer runs without a sentence end are cut at whitespace so the tagger never sees a huge unbroken block. */
const maxSegmentLength = 2_000;

const lexicon = (nlp.world() as { model: { one: { lexicon: Record<string, string | string[]> } } }).model.one.lexicon;

const tagsOf = (word: string): readonly string[] => {
  const tags = lexicon[word.toLowerCase()];
  return tags === undefined ? [] : Array.isArray(tags) ? tags : [tags];
};

/** Tags that make a sentence's capitalised first word worth tagging (a name, a place, or a word compromise does not know). */
const entityTags = new Set([
  'MaleName',
  'FemaleName',
  'FirstName',
  'LastName',
  'Person',
  'Place',
  'Country',
  'City',
  'Region',
  'Demonym',
  'Honorific',
]);

/**
 * Splits text into sentences (and cuts very long ones at whitespace), keeping UTF-16 offsets. The tagger costs
 * milliseconds per kilobyte, so it only runs on sentences that can hold a name: see `mayHoldName`.
 */
export const segments = (text: string): Segment[] => {
  const out: Segment[] = [];
  const sentence = /[^\n]*?(?:[.!?]+(?=\s|$)|\n|$)/g;
  for (const match of text.matchAll(sentence)) {
    if (match[0] === '') continue;
    let start = match.index;
    let rest = match[0];
    while (rest.length > maxSegmentLength) {
      const cut = rest.lastIndexOf(' ', maxSegmentLength);
      const at = cut > 0 ? cut + 1 : maxSegmentLength;
      out.push({ start, text: rest.slice(0, at) });
      start += at;
      rest = rest.slice(at);
    }
    out.push({ start, text: rest });
  }
  return out;
};

// Module-level, not literals in the functions: esbuild turns a `\p{…}` literal into `new RegExp(…)`, parsed again
// on every evaluation. `match` with a global regex starts from 0 and leaves lastIndex at 0.
const UNUSUAL_CHARACTER = /[^\p{L}\p{N}\s.,;:!?'"’()@+/&#%-]/gu;
const WORD = /\p{L}[\p{L}'’.-]*/gu;
const STARTS_CAPITALISED = /^\p{Lu}/u;

/** Whether the word begins with an upper-case letter (every NER module's test for a name-like word). */
export const startsCapitalised = (word: string): boolean => STARTS_CAPITALISED.test(word);

/**
 * Binary junk is not a sentence: in prose (phone numbers and addresses included) almost every character is a
 * letter, digit, space or common punctuation; in random bytes decoded as text about 55 % are.
 */
const looksLikeProse = (sentence: string): boolean => {
  // Counted as all code points minus the unusual ones: prose has few, so no array of every character.
  const unusual = sentence.match(UNUSUAL_CHARACTER)?.length ?? 0;
  return codePointCount(sentence) - unusual >= sentence.length * 0.8;
};

/**
 * English writes names with a capital letter: a sentence can hold a PERSON or LOCATION only if some word after
 * the first is capitalised, or its first word is a known name or place, or a word compromise does not know.
 */
export const mayHoldName = (sentence: string): boolean => {
  if (!looksLikeProse(sentence)) return false;
  const words = sentence.match(WORD);
  if (words === null) return false;
  const [first, ...others] = words;
  if (others.some(startsCapitalised)) return true;
  if (first === undefined || !startsCapitalised(first)) return false;
  const tags = tagsOf(first.replace(/[.'’-]+$/, ''));
  return tags.length === 0 || tags.some((tag) => entityTags.has(tag));
};
