/**
 * PIPL_NATIONAL_ID — PRC resident identity number (beyond Presidio). 18 characters: 6-digit region code
 * (first digit 1–8, known province prefix), birth date YYYYMMDD (real, not in the future), 3-digit sequence,
 * ISO 7064 MOD 11-2 check character (0–9 or X) → 1.0 when everything holds, else dropped. The 15-digit
 * legacy form (YYMMDD, 19xx, no check character) with a valid province and date is kept at 0.3.
 * Enabled by default in `en` and `zh`.
 */
import { isRealDate, iso7064Mod11_2 } from '../../checksums.ts';
import { definePatternRecognizer } from '../../pattern.ts';

/** Province-level prefixes of GB/T 2260 (plus 71 Taiwan, 81 Hong Kong, 82 Macao, 83 Taiwan residence permits). */
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61, 62, 63, 64, 65, 71, 81, 82,
  83,
]);

const dateOk = (year: number, month: number, day: number, now: Date): boolean =>
  year >= 1900 && isRealDate(year, month, day) && Date.UTC(year, month - 1, day) <= now.getTime();

/** Full validation of an 18- or 15-character PRC resident id (true, null for a plausible legacy id, false). */
export const piplValidate = (text: string, now = new Date()): boolean | null => {
  const t = text.toUpperCase();
  if (!PROVINCES.has(Number(t.slice(0, 2)))) return false;
  if (t.length === 18) {
    if (!/^\d{17}[\dX]$/.test(t)) return false;
    if (!dateOk(Number(t.slice(6, 10)), Number(t.slice(10, 12)), Number(t.slice(12, 14)), now)) return false;
    return iso7064Mod11_2(t.slice(0, 17)) === t[17];
  }
  if (t.length === 15 && /^\d{15}$/.test(t))
    return dateOk(1900 + Number(t.slice(6, 8)), Number(t.slice(8, 10)), Number(t.slice(10, 12)), now) ? null : false;
  return false;
};

export const piplRecognizer = definePatternRecognizer({
  name: 'PiplNationalIdRecognizer',
  entity: 'PIPL_NATIONAL_ID',
  languages: ['en', 'zh'],
  context: [
    '身份证',
    '身份证号',
    '身份证号码',
    '居民身份证',
    '公民身份号码',
    'id card',
    'resident',
    'pipl',
    'identity',
    'national id',
    'prc',
  ],
  patterns: [
    {
      name: 'PRC resident id (18)',
      regex: /(?<![\dA-Za-z])[1-8]\d{5}(?:18|19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[\dX](?![\dA-Za-z])/i,
      score: 0.5,
    },
    {
      name: 'PRC resident id (15, legacy)',
      regex: /(?<![\dA-Za-z])[1-8]\d{7}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}(?![\dA-Za-z])/,
      score: 0.3,
    },
  ],
  validate: (text) => piplValidate(text),
});
