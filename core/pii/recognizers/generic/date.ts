/** DATE_TIME: Presidio's date patterns (ISO-8601 0.8; numeric and month-name dates 0.6; m/yyyy 0.2; m/yy 0.1). */
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const MM = '(?:0?[1-9]|1[0-2])';
const DD = '(?:0?[1-9]|[12]\\d|3[01])';
const YY = '(?:\\d{4}|\\d{2})';
const MMM = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const B = '(?<![\\w/.-])';
const E = '(?![\\w/-]|\\.\\d)';
const re = (body: string): RegExp => new RegExp(`${B}${body}${E}`, 'i');

// What every match of a pattern contains, found without its leading look-behind (which keeps V8 from skipping
// ahead to a likely start): most prose has none of them, and its date patterns are then not run at all.
const slash = /\d\/\d/;
const dash = /\d-\d/;
const dot = /\d\.\d/;
const digitThenMonth = new RegExp(`\\d-${MMM}`, 'i');
const monthThenDigit = new RegExp(`${MMM}-\\d`, 'i');

export const dateRecognizer = definePatternRecognizer({
  name: 'DateRecognizer',
  entity: 'DATE_TIME',
  languages: GENERIC_LANGUAGES,
  context: ['date', 'birthday'],
  patterns: [
    {
      name: 'ISO 8601',
      regex:
        /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)(?![\w:])/i,
      score: 0.8,
    },
    { name: 'mm/dd/yyyy or mm/dd/yy', regex: re(`${MM}/${DD}/${YY}`), score: 0.6, requires: slash },
    { name: 'dd/mm/yyyy or dd/mm/yy', regex: re(`${DD}/${MM}/${YY}`), score: 0.6, requires: slash },
    { name: 'yyyy/mm/dd', regex: re(`\\d{4}/${MM}/${DD}`), score: 0.6, requires: slash },
    { name: 'mm-dd-yyyy', regex: re(`${MM}-${DD}-\\d{4}`), score: 0.6, requires: dash },
    { name: 'dd-mm-yyyy', regex: re(`${DD}-${MM}-\\d{4}`), score: 0.6, requires: dash },
    { name: 'yyyy-mm-dd', regex: re(`\\d{4}-${MM}-${DD}`), score: 0.6, requires: dash },
    { name: 'dd.mm.yyyy or dd.mm.yy', regex: re(`${DD}\\.${MM}\\.${YY}`), score: 0.6, requires: dot },
    { name: 'dd-MMM-yyyy or dd-MMM-yy', regex: re(`${DD}-${MMM}-${YY}`), score: 0.6, requires: digitThenMonth },
    { name: 'MMM-yyyy or MMM-yy', regex: re(`${MMM}-${YY}`), score: 0.6, requires: monthThenDigit },
    { name: 'dd-MMM', regex: re(`${DD}-${MMM}`), score: 0.6, requires: digitThenMonth },
    { name: 'mm/yyyy or m/yyyy', regex: re(`${MM}/\\d{4}`), score: 0.2, requires: slash },
    { name: 'mm/yy or m/yy', regex: re(`${MM}/\\d{2}`), score: 0.1, requires: slash },
  ],
});
