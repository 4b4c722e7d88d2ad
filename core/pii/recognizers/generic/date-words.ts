/**
 * DATE_TIME in words (English): `3rd of March 2024`, `March 3, 2024`, `the 1st of May`, `Tuesday, 14 February
 * 2023 at 10:30` through chrono-node's strict English parser, plus years in context (`born in 1985`, `since
 * 2019`). Presidio finds these with spaCy's DATE entity at the NER score, so they score 0.85 here too.
 *
 * Cost: chrono only runs on short windows around month names (measured in docs/decisions.md: a whole-text
 * parse costs milliseconds per kilobyte, compromise-dates about a hundred times more), so text without a month
 * name pays one regex scan.
 */
import { strict as chronoStrict } from 'chrono-node/en';
import type { Finding, Recognizer } from '../../types.ts';

const SCORE = 0.85;
const NAME = 'DateWordsRecognizer';
const MONTH =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b/gi;
const HAS_MONTH = new RegExp(MONTH.source, 'i');
/** Words around a month name that a date in words can reach ("Tuesday, the 14th of February 2023 at 10:30"). */
const REACH = 48;
/** A year after a word that makes it one (a bare 4-digit number is not a date). */
const YEAR_IN_CONTEXT =
  /\b(?:in|since|from|until|till|by|during|before|after|circa|around|born|class of|the year|year)\s+((?:1[89]|20)\d{2})\b(?![-/.:]\d|\s?%)/dgi;
/** chrono keeps a leading preposition ("on Tuesday…"); the entity is the date itself. */
const LEADING_WORD = /^(?:on|at|in|from|by|since|until|the)\s+/i;

const finding = (start: number, end: number, pattern: string): Finding => ({
  type: 'DATE_TIME',
  start,
  end,
  score: SCORE,
  explanation: { recognizer: NAME, pattern, originalScore: SCORE, score: SCORE, validationResult: null },
});

/** Merged [start, end) windows around each month name, widened to whitespace. */
const windowsOf = (text: string): Array<[number, number]> => {
  const windows: Array<[number, number]> = [];
  for (const m of text.matchAll(MONTH)) {
    let start = Math.max(0, m.index - REACH);
    let end = Math.min(text.length, m.index + m[0].length + REACH);
    while (start > 0 && !/\s/.test(text[start - 1] as string)) start--;
    while (end < text.length && !/\s/.test(text[end] as string)) end++;
    const last = windows[windows.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else windows.push([start, end]);
  }
  return windows;
};

const wordDates = (text: string): Finding[] => {
  const findings: Finding[] = [];
  for (const [from, to] of windowsOf(text)) {
    for (const result of chronoStrict.parse(text.slice(from, to))) {
      const lead = LEADING_WORD.exec(result.text)?.[0].length ?? 0;
      const matched = result.text.slice(lead).replace(/[\s,]+$/, '');
      const start = from + result.index + lead;
      // Times alone ("at 5pm") and numeric dates are left to the pattern recognizer.
      if (HAS_MONTH.test(matched)) findings.push(finding(start, start + matched.length, 'chrono-node (en, strict)'));
    }
  }
  for (const m of text.matchAll(YEAR_IN_CONTEXT)) {
    const span = m.indices?.[1];
    if (span) findings.push(finding(span[0], span[1], 'year in context'));
  }
  return findings;
};

export const dateWordsRecognizer: Recognizer = {
  name: NAME,
  supportedEntities: ['DATE_TIME'],
  supportedLanguages: ['en'],
  context: ['date', 'birthday'],
  enabledByDefault: true,
  analyze: ({ text }) => wordDates(text),
};
