/**
 * Presidio's LemmaContextAwareEnhancer with its defaults (factor 0.35, minimum 0.4, 5 prefix keywords,
 * 0 suffix, substring matching). We have no lemmatizer: keywords are lower-cased word tokens (whitespace
 * and ':' separated, surrounding punctuation stripped) that are not English stop words. Substring
 * matching makes plurals work anyway ("cards" contains "card"). Beyond Presidio, a multi-word context
 * entry ("social security") may match the window's keywords joined by single spaces.
 */
import type { Finding } from './types.ts';

export const CONTEXT_SIMILARITY_FACTOR = 0.35;
export const MIN_SCORE_WITH_CONTEXT = 0.4;
export const CONTEXT_PREFIX_COUNT = 5;
/** Never walk further back than this many tokens or code units, whatever the stop-word density. */
const MAX_TOKENS_SCANNED = 40;
const MAX_CHARS_SCANNED = 400;

const STOP_WORDS = new Set(
  (
    'a an the and or but if of at by for with about against between into through during before after above ' +
    'below to from up down in out on off over under again further then once here there when where why how all ' +
    'any both each few more most other some such no nor not only own same so than too very s t can will just ' +
    'don should now i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom this that these ' +
    'those am is are was were be been being have has had having do does did doing would could ought also as ' +
    "is's please thanks hi hello dear yes ok okay via per"
  ).split(' '),
);

const isSeparator = (code: number): boolean =>
  code === 32 || code === 9 || code === 10 || code === 13 || code === 12 || code === 11 || code === 58 || code === 0xa0;

const EDGE_PUNCT = /^[^\p{L}\p{N}#]+|[^\p{L}\p{N}#]+$/gu;

const keywordOf = (raw: string): string | null => {
  const word = raw.replace(EDGE_PUNCT, '').toLowerCase();
  if (word === '' || STOP_WORDS.has(word)) return null;
  return word;
};

/** The keywords Presidio would look at for a finding starting at `start` (UTF-16): its own first token + 5 before. */
export const contextKeywords = (text: string, start: number): string[] => {
  let tokStart = start;
  while (tokStart > 0 && !isSeparator(text.charCodeAt(tokStart - 1)) && start - tokStart < MAX_CHARS_SCANNED) tokStart--;
  let tokEnd = start;
  while (tokEnd < text.length && !isSeparator(text.charCodeAt(tokEnd)) && tokEnd - start < MAX_CHARS_SCANNED) tokEnd++;
  const keywords: string[] = [];
  const own = keywordOf(text.slice(tokStart, tokEnd));
  if (own) keywords.push(own);
  let pos = tokStart;
  const limit = Math.max(0, start - MAX_CHARS_SCANNED);
  for (let scanned = 0; scanned < MAX_TOKENS_SCANNED && keywords.length <= CONTEXT_PREFIX_COUNT && pos > limit; ) {
    while (pos > limit && isSeparator(text.charCodeAt(pos - 1))) pos--;
    const end = pos;
    while (pos > limit && !isSeparator(text.charCodeAt(pos - 1))) pos--;
    if (end === pos) break;
    scanned++;
    const kw = keywordOf(text.slice(pos, end));
    if (kw) keywords.push(kw);
  }
  return keywords;
};

/** First recognizer context word found in the keywords (substring mode), or undefined. */
export const matchContextWord = (contextWords: readonly string[], keywords: readonly string[]): string | undefined => {
  const joined = keywords.length > 1 ? [...keywords].reverse().join(' ') : '';
  for (const raw of contextWords) {
    const word = raw.toLowerCase().trim();
    if (word === '') continue;
    if (word.includes(' ')) {
      if (joined.includes(word) || keywords.some((k) => k.includes(word))) return raw;
    } else if (keywords.some((k) => k.includes(word))) return raw;
  }
  return undefined;
};

/** Presidio's boost: min(1, max(score + 0.35, 0.4)). */
export const boostedScore = (score: number): number => Math.min(1, Math.max(score + CONTEXT_SIMILARITY_FACTOR, MIN_SCORE_WITH_CONTEXT));

/** Returns the finding boosted by context when a context word is near, else the finding itself. */
export const enhanceWithContext = (
  finding: Finding,
  text: string,
  contextWords: readonly string[],
  requestContext: readonly string[],
): Finding => {
  if (contextWords.length === 0) return finding;
  const keywords = contextKeywords(text, finding.start);
  for (const word of requestContext) keywords.push(word.toLowerCase());
  const word = matchContextWord(contextWords, keywords);
  if (word === undefined) return finding;
  const score = boostedScore(finding.score);
  const explanation = finding.explanation && { ...finding.explanation, score, contextWord: word };
  return explanation ? { ...finding, score, explanation } : { ...finding, score };
};
