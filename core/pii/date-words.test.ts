/** DATE_TIME in words (issue 13): chrono-node's strict English parser around month names, and years in context. */
import { describe, expect, it } from 'vitest';
import { createPiiEngine } from './engine.ts';

const engine = createPiiEngine();
const dates = (text: string, language = 'en') =>
  engine.scan(text, { language, entities: ['DATE_TIME'] }).entities.map((f) => [...text].slice(f.start, f.end).join(''));

describe('dates in words', () => {
  it.each([
    ['We met on the 3rd of March 2024.', '3rd of March 2024'],
    ['Signed March 3, 2024 in Leeds.', 'March 3, 2024'],
    ['See you the 1st of May, she said.', '1st of May'],
    ['Due by 5 June.', '5 June'],
    ['Sept. 5th, 2021 was the start.', 'Sept. 5th, 2021'],
    ['The meeting is on Tuesday, 14 February 2023 at 10:30.', 'Tuesday, 14 February 2023 at 10:30'],
    ['He was born in 1985 in Leeds.', '1985'],
    ['She has lived here since 2019.', '2019'],
    ['Class of 2010 reunion.', '2010'],
  ])('%s → %s', (text, expected) => {
    expect(dates(text)).toEqual([expected]);
  });

  it.each([
    ['May I come in?'],
    ['I may do that. March on!'],
    ['Version 2019 of the tool costs 2024 dollars.'],
    ['Call me tomorrow at 5pm.'],
    ['Room 1985 is upstairs.'],
    ['Growth in 2019% terms.'],
  ])('%s holds no date in words', (text) => {
    expect(dates(text)).toEqual([]);
  });

  it('is English only: other languages keep the numeric patterns', () => {
    expect(dates('am 3rd of March 2024 und 2024-03-01', 'de')).toEqual(['2024-03-01']);
  });
});
