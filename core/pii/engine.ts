/**
 * The analyzer pipeline (Presidio's AnalyzerEngine.analyze): pick recognizers by language and entity filter
 * (+ ad-hoc and deny-list recognizers of the request), run them, enhance by context, remove contained
 * same-type duplicates, apply score thresholds and the allow list, order the results and convert offsets
 * to code points. Any recognizer error propagates: the engine never fails open.
 */
import { AppError } from '../errors.ts';
import { adHocToRecognizer, denyListToRecognizer, loadCustomRecognizers, USER_REGEX_FLAGS } from './adhoc.ts';
import { enhanceWithContext } from './context.ts';
import { compareFindings, removeDuplicates } from './dedupe.ts';
import { scanViews, type TextView } from './normalize.ts';
import { utf16ToCodePointMapper } from './offsets.ts';
import { redact } from './redact.ts';
import { catalogOf, entityTypesOf, supportsLanguage } from './catalog.ts';
import { builtInRecognizers } from './registry.ts';
import { assertSafeRegex } from './safe-regex.ts';
import type { CreatePiiEngineOptions, EngineScanOptions, Finding, PiiEngine, Recognizer } from './types.ts';

export const DEFAULT_LANGUAGE = 'en';

const allowListFilter = (options: EngineScanOptions): ((matched: string) => boolean) => {
  const list = options.allowList ?? [];
  if (list.length === 0) return () => false;
  if (options.allowListMatch === 'regex') {
    const regex = assertSafeRegex(list.join('|'), USER_REGEX_FLAGS.replace('g', ''));
    return (matched) => regex.test(matched);
  }
  const set = new Set(list);
  return (matched) => set.has(matched);
};

const withTextualExplanation = (f: Finding): Finding => {
  const e = f.explanation;
  if (!e) return f;
  const parts = [`Identified as ${f.type} by ${e.recognizer}`];
  if (e.pattern) parts.push(`pattern ${e.pattern}`);
  if (e.validationResult === true) parts.push('checksum valid');
  if (e.contextWord) parts.push(`context word "${e.contextWord}"`);
  return { ...f, explanation: { ...e, textualExplanation: parts.join('; ') } };
};

/** Creates the pattern engine (plus any extra recognizers, e.g. NER) — see PiiEngine in types.ts. */
export const createPiiEngine = (options: CreatePiiEngineOptions = {}): PiiEngine => {
  const custom = options.customRecognizersFile ? loadCustomRecognizers(options.customRecognizersFile, DEFAULT_LANGUAGE) : [];
  const recognizers: readonly Recognizer[] = [...builtInRecognizers(), ...(options.extraRecognizers ?? []), ...custom];
  const languageSet = new Set(recognizers.flatMap((r) => r.supportedLanguages));

  const scan: PiiEngine['scan'] = (text, opts = {}, onProgress) => {
    const language = opts.language ?? DEFAULT_LANGUAGE;
    for (const t of [opts.scoreThreshold, ...Object.values(opts.perEntityThresholds ?? {})])
      if (t !== undefined && !(t >= 0 && t <= 1)) throw new AppError('VALIDATION', 'score thresholds must be between 0 and 1');
    if (!languageSet.has(language)) throw new AppError('VALIDATION', `unsupported language: ${language}`);
    const requestRecognizers = [
      ...(opts.adHocRecognizers ?? []).map((r) => adHocToRecognizer(r, language)),
      ...(opts.denyList ?? []).map((d, i) => denyListToRecognizer(d, language, i)),
    ].filter((r) => supportsLanguage(r, language));
    const wanted = opts.entities ? new Set(opts.entities) : undefined;
    if (wanted) {
      const known = new Set([...entityTypesOf(recognizers, language, false), ...entityTypesOf(requestRecognizers, language, false)]);
      for (const e of wanted) if (!known.has(e)) throw new AppError('VALIDATION', `unknown entity type for ${language}: ${e}`);
    }
    const active = [...recognizers, ...requestRecognizers].filter(
      (r) => supportsLanguage(r, language) && (wanted ? r.supportedEntities.some((e) => wanted.has(e)) : r.enabledByDefault !== false),
    );
    const isAllowed = allowListFilter(opts);
    const { views, changed } = scanViews(text);
    const steps = views.length * active.length;
    let done = 0;
    // Each view (normalised text, plus the reading order behind a right-to-left override) is scanned as a
    // whole; findings map back to the original text, so spans cover the invisible characters they enclose.
    const inView = (view: TextView): Finding[] => {
      const candidates: Finding[] = [];
      for (const r of active) {
        const input = { text: view.text, language, ...(opts.phoneRegions ? { phoneRegions: opts.phoneRegions } : {}) };
        for (const f of r.analyze(input)) {
          if (wanted && !wanted.has(f.type)) continue;
          candidates.push(enhanceWithContext(f, view.text, r.context, opts.context ?? []));
        }
        onProgress?.(++done, steps, r.name);
      }
      return removeDuplicates(candidates)
        .filter((f) => !isAllowed(view.text.slice(f.start, f.end)))
        .map((f) => {
          const [start, end] = view.toOriginal(f.start, f.end);
          return { ...f, start, end };
        });
    };
    const found = views.length === 1 ? inView(views[0] as TextView) : removeDuplicates(views.flatMap(inView));
    const threshold = opts.scoreThreshold ?? 0;
    const perEntity = opts.perEntityThresholds ?? {};
    const toCodePoint = utf16ToCodePointMapper(text);
    const entities = found
      .filter((f) => f.score >= (perEntity[f.type] ?? threshold))
      .map((f): Finding => {
        const moved = { type: f.type, start: toCodePoint(f.start), end: toCodePoint(f.end), score: f.score };
        return opts.returnExplanation && f.explanation ? withTextualExplanation({ ...moved, explanation: f.explanation }) : moved;
      })
      .sort(compareFindings);
    return { detected: entities.length > 0, entities, redacted_text: redact(text, entities), normalized: changed };
  };

  return { scan, ...catalogOf(recognizers) };
};
