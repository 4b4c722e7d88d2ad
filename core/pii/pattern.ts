/**
 * Presidio's PatternRecognizer semantics: every non-empty match of every pattern is a candidate with the
 * pattern's score; validate() true → 1.0, false → dropped, null → kept; invalidate() true → dropped.
 */
import type { Finding, Recognizer } from './types.ts';

export type Validation = boolean | null;

export type PatternSpec = {
  readonly name: string;
  /** Must be linear-time on adversarial input (bounded repetitions, no nested quantifiers). */
  readonly regex: RegExp;
  readonly score: number;
  /** Capture group holding the entity when the regex also matches guard characters (default whole match). */
  readonly group?: number;
  /**
   * A cheap test that every text holding a match passes (it finds a rare character or sequence the regex needs):
   * when it fails the regex is not run. Prose has no MAC or IPv6 address, yet their regexes, which V8 cannot skip
   * ahead on, cost a tenth of a 1 KB scan. Must also pass the character before and after a match (lookarounds).
   */
  readonly requires?: RegExp;
};

export type PatternRecognizerSpec = {
  readonly name: string;
  readonly entity: string;
  readonly languages: readonly string[];
  readonly patterns: readonly PatternSpec[];
  readonly context: readonly string[];
  readonly enabledByDefault?: boolean;
  readonly validate?: (text: string) => Validation;
  readonly invalidate?: (text: string) => boolean;
};

/** Ensures a regex is global (so it can scan the whole text). */
export const globalRegex = (regex: RegExp, withIndices = false): RegExp => {
  const extra = (regex.global ? '' : 'g') + (withIndices && !regex.hasIndices ? 'd' : '');
  return extra === '' ? regex : new RegExp(regex.source, regex.flags + extra);
};

type Scoring = Pick<PatternRecognizerSpec, 'name' | 'entity' | 'validate' | 'invalidate'>;

/** Scores one candidate the Presidio way; null when it is dropped. */
export const scoreCandidate = (
  spec: Scoring,
  patternName: string,
  baseScore: number,
  matched: string,
  start: number,
  end: number,
): Finding | null => {
  let score = baseScore;
  const validationResult = spec.validate ? spec.validate(matched) : null;
  if (validationResult === true) score = 1;
  else if (validationResult === false) return null;
  if (spec.invalidate?.(matched)) return null;
  if (score <= 0) return null;
  return {
    type: spec.entity,
    start,
    end,
    score,
    explanation: {
      recognizer: spec.name,
      pattern: patternName,
      originalScore: baseScore,
      score,
      validationResult,
    },
  };
};

/** Runs one global regex over `text`, calling `onMatch` with the entity span (UTF-16); `group` needs the d flag. */
export const forEachMatch = (
  regex: RegExp,
  text: string,
  group: number | undefined,
  onMatch: (matched: string, start: number, end: number) => void,
): void => {
  regex.lastIndex = 0;
  for (let m = regex.exec(text); m !== null; m = regex.exec(text)) {
    if (m[0].length === 0) {
      regex.lastIndex++;
      continue;
    }
    if (group === undefined) {
      onMatch(m[0], m.index, m.index + m[0].length);
      continue;
    }
    const g = m[group];
    const span = m.indices?.[group];
    if (g === undefined || g.length === 0 || span === undefined) continue;
    onMatch(g, span[0], span[1]);
  }
};

/** Builds a Recognizer from patterns + optional validator/invalidator. */
export const definePatternRecognizer = (spec: PatternRecognizerSpec): Recognizer => {
  const patterns = spec.patterns.map((p) => ({
    ...p,
    regex: globalRegex(p.regex, p.group !== undefined),
    // `test` with a global or sticky regex would start where the last text left off.
    requires: p.requires && new RegExp(p.requires.source, p.requires.flags.replace(/[gy]/g, '')),
  }));
  return {
    name: spec.name,
    supportedEntities: [spec.entity],
    supportedLanguages: spec.languages,
    context: spec.context,
    enabledByDefault: spec.enabledByDefault ?? true,
    analyze: ({ text }) => {
      const findings: Finding[] = [];
      for (const p of patterns) {
        if (p.requires?.test(text) === false) continue;
        forEachMatch(p.regex, text, p.group, (matched, start, end) => {
          const f = scoreCandidate(spec, p.name, p.score, matched, start, end);
          if (f) findings.push(f);
        });
      }
      return findings;
    },
  };
};
