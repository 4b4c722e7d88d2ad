/**
 * URL: with `http(s)://` → 0.6, without scheme → 0.5 (0.6 inside quotes). Presidio matches the TLD against
 * a fixed list; we invalidate hosts whose last label is not an ICANN public suffix (tldts), which is the
 * maintained form of that list.
 */
import { parse } from 'tldts';
import { definePatternRecognizer } from '../../pattern.ts';
import { GENERIC_LANGUAGES } from '../languages.ts';

const HOST = '[a-z0-9-]{1,63}(?:\\.[a-z0-9-]{1,63}){0,10}\\.[a-z]{2,63}';
/** Optional port and path; a path never ends in sentence punctuation (`see https://x.org/a.` → no dot). */
const PORT_PATH = '(?::\\d{1,5})?(?:[/?#](?:[^\\s"\'<>\\[\\]{}]{0,2047}[^\\s"\'<>\\[\\]{}.,;:!?)])?)?';

const hostOf = (url: string): string =>
  url
    .replace(/^https?:\/\//i, '')
    .split(/[/?#:]/)[0]
    ?.toLowerCase() ?? '';

/** True when the host's suffix is not a known public suffix. */
export const invalidUrl = (url: string): boolean => {
  const parsed = parse(hostOf(url));
  return parsed.isIcann !== true || parsed.domain === null;
};

export const urlRecognizer = definePatternRecognizer({
  name: 'UrlRecognizer',
  entity: 'URL',
  languages: GENERIC_LANGUAGES,
  context: ['url', 'website', 'link'],
  patterns: [
    { name: 'Standard Url', regex: new RegExp(`\\bhttps?://(?:www\\d{0,3}\\.)?${HOST}${PORT_PATH}`, 'i'), score: 0.6 },
    {
      name: 'Non schema URL',
      // The lookahead adds no condition (every match starts with letters, digits or hyphens and a dot) but fails
      // an ordinary word in one pass, where the host part backtracked through it: a quarter of this regex's time.
      regex: new RegExp(`(?<![\\w@./:-])(?=[a-z0-9-]+\\.)(?:www\\d{0,3}\\.)?${HOST}(?![\\w@-])${PORT_PATH}`, 'i'),
      score: 0.5,
    },
    {
      name: 'Quoted URL',
      regex: new RegExp(`(?<=["'])(?:www\\d{0,3}\\.)?${HOST}${PORT_PATH}(?=["'])`, 'i'),
      score: 0.6,
      requires: /["']/,
    },
  ],
  invalidate: invalidUrl,
});
