/**
 * Ad-hoc recognizers (Presidio's `ad_hoc_recognizers` JSON shape) and request deny lists, turned into
 * Recognizers. User regexes pass the static safety rule (safe-regex.ts) and run under the time guard
 * (guarded-regex.ts) with Presidio's default flags 26 = IGNORECASE | MULTILINE | DOTALL.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { runGuardedPatterns } from './guarded-regex.ts';
import { scoreCandidate } from './pattern.ts';
import { assertSafeRegex } from './safe-regex.ts';
import type { AdHocRecognizer, DenyListEntry, Finding, Recognizer } from './types.ts';

/** Presidio's regex_flags 26 in JavaScript terms. */
export const USER_REGEX_FLAGS = 'gims';
const ENTITY_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

export const adHocRecognizerSchema = z
  .object({
    name: z.string().min(1).max(100),
    supported_entity: z.string().regex(ENTITY_NAME, 'entity names are upper-case letters, digits and _'),
    supported_language: z.string().min(2).max(8).optional(),
    patterns: z
      .array(z.object({ name: z.string().min(1).max(100), regex: z.string().min(1), score: z.number().min(0).max(1) }))
      .max(50)
      .optional(),
    context: z.array(z.string().min(1).max(100)).max(100).optional(),
    deny_list: z.array(z.string().min(1).max(200)).max(10_000).optional(),
    deny_list_score: z.number().min(0).max(1).optional(),
  })
  .refine((r) => (r.patterns?.length ?? 0) > 0 || (r.deny_list?.length ?? 0) > 0, {
    message: 'a recognizer needs patterns or a deny_list',
  });

const escapeRegex = (word: string): string => word.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Presidio's deny-list regex: escaped words OR-ed between non-word boundaries (literals only: linear). */
const denyListRegex = (words: readonly string[]): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');

const spansOf = (regex: RegExp, text: string): Array<[number, number]> => {
  const spans: Array<[number, number]> = [];
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    if (m[0].length === 0) regex.lastIndex++;
    else spans.push([m.index, m.index + m[0].length]);
  }
  return spans;
};

/** Builds a Recognizer from an ad-hoc/custom JSON definition; throws VALIDATION on a bad or unsafe one. */
export const adHocToRecognizer = (raw: AdHocRecognizer, defaultLanguage: string): Recognizer => {
  const parsed = adHocRecognizerSchema.safeParse(raw);
  if (!parsed.success) throw new AppError('VALIDATION', `invalid ad-hoc recognizer: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
  const def = parsed.data;
  const patterns = (def.patterns ?? []).map((p) => {
    assertSafeRegex(p.regex, USER_REGEX_FLAGS);
    return p;
  });
  const deny = def.deny_list && def.deny_list.length > 0 ? denyListRegex(def.deny_list) : undefined;
  const scoring = { name: def.name, entity: def.supported_entity };
  return {
    name: def.name,
    supportedEntities: [def.supported_entity],
    supportedLanguages: [def.supported_language ?? defaultLanguage],
    context: def.context ?? [],
    enabledByDefault: true,
    analyze: ({ text }) => {
      const findings: Finding[] = [];
      const matches = runGuardedPatterns(
        patterns.map((p) => ({ source: p.regex, flags: USER_REGEX_FLAGS })),
        text,
      );
      patterns.forEach((p, i) => {
        for (const [s, e] of matches[i] ?? []) {
          const f = scoreCandidate(scoring, p.name, p.score, text.slice(s, e), s, e);
          if (f) findings.push(f);
        }
      });
      if (deny) {
        for (const [s, e] of spansOf(deny, text)) {
          const f = scoreCandidate(scoring, 'deny_list', def.deny_list_score ?? 1, '', s, e);
          if (f) findings.push(f);
        }
      }
      return findings;
    },
  };
};

/** A request deny list entry as a Recognizer (exact words, or regexes under the safety rule). */
export const denyListToRecognizer = (entry: DenyListEntry, language: string, index: number): Recognizer => {
  if (!ENTITY_NAME.test(entry.entity)) throw new AppError('VALIDATION', `invalid deny-list entity: ${entry.entity}`);
  const values = entry.values.filter((v) => v.length > 0);
  if (values.length === 0) throw new AppError('VALIDATION', 'a deny list needs at least one value');
  const name = `DenyList${index}_${entry.entity}`;
  const score = entry.score ?? 1;
  if (entry.match === 'regex') {
    return adHocToRecognizer(
      {
        name,
        supported_entity: entry.entity,
        supported_language: language,
        patterns: values.map((regex, i) => ({ name: `deny_list_regex_${i}`, regex, score })),
      },
      language,
    );
  }
  return adHocToRecognizer(
    { name, supported_entity: entry.entity, supported_language: language, deny_list: values, deny_list_score: score },
    language,
  );
};

/** Loads custom recognizers from a JSON file: an array, or `{ "recognizers": [...] }`. */
export const loadCustomRecognizers = (file: string, defaultLanguage: string): Recognizer[] => {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new AppError('VALIDATION', `cannot read custom recognizers file ${file}: ${(error as Error).message}`, { cause: error });
  }
  const list = Array.isArray(json) ? json : (json as { recognizers?: unknown })?.recognizers;
  if (!Array.isArray(list)) throw new AppError('VALIDATION', `${file}: expected an array of recognizers`);
  return list.map((r) => adHocToRecognizer(r as AdHocRecognizer, defaultLanguage));
};
