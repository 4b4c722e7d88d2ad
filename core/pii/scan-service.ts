import type { App } from '../app.ts';
import type { Settings } from '../config/settings-schema.ts';
import { AppError } from '../errors.ts';
import type { EngineCatalog } from './catalog.ts';
import { defaultPiiEngine, piiCatalog } from './default-engine.ts';
import { compareFindings, removeDuplicates } from './dedupe.ts';
import { appendDurably } from './evidence-queue.ts';
import { PresidioUnavailableError, presidioAnalyze } from './presidio/client.ts';
import { scanViews } from './normalize.ts';
import { phoneRegionsOfSetting } from './phone-regions.ts';
import { codePointCount, codePointToUtf16Mapper, utf16ToCodePointMapper } from './offsets.ts';
import { redact } from './redact.ts';
import { scannerOf } from './pool/scanner.ts';
import { markPresidio } from './status.ts';
import type { EngineScanOptions, Finding, ScanResult } from './types.ts';

/** What the pipeline does with PII: replace it, refuse the request (422), or report it and pass the text through. */
export type PiiAction = 'redact' | 'block' | 'flag';

export type ScanRequest = EngineScanOptions & {
  readonly text: string;
  readonly language: string;
  /** Evidence chain the scan is recorded in. */
  readonly projectId: string;
  /** Who scanned, recorded in the evidence (`pii.scan`, `chat.filter`, `cli.scan`). */
  readonly source: string;
  /** Overrides settings.piiAction for this call. */
  readonly action?: PiiAction;
  /** Stops the scan: a queued one at once, a running one by replacing its worker (in-process: before it starts). */
  readonly signal?: AbortSignal;
  /** Told after each recognizer pass, for texts of `progressFromChars` or more. */
  readonly onProgress?: (done: number, total: number, message: string) => void;
};

export type ScanOutcome = {
  readonly result: ScanResult;
  readonly action: PiiAction;
  readonly engine: 'builtin' | 'presidio' | 'merged';
};

/** Text beyond this many UTF-8 bytes is refused (spec 8: at most 1 MiB), whatever transport brought it. */
export const maxTextBytes = 1024 * 1024;

/** Smaller texts scan in milliseconds: progress for them would only cost messages. */
export const progressFromChars = 64 * 1024;

/** An engine failure becomes `scan_error: <detail>` (500); client mistakes (AppError) pass through unchanged. */
const scanError = (error: unknown): AppError => {
  if (error instanceof AppError) return error;
  const detail = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 200) || error.name : 'unknown failure';
  return new AppError('INTERNAL', `scan_error: ${detail}`, { cause: error });
};

/** What the engine scans for; asking never builds it (with scan workers, the main thread never does). */
const catalogFor = (app: App): EngineCatalog => {
  try {
    return piiCatalog(app);
  } catch (error) {
    throw scanError(error);
  }
};

const presidioFindings = async (url: string, request: ScanRequest): Promise<Finding[]> =>
  presidioAnalyze(url, {
    text: request.text,
    language: request.language,
    ...(request.entities ? { entities: request.entities } : {}),
    ...(request.scoreThreshold !== undefined ? { score_threshold: request.scoreThreshold } : {}),
    return_decision_process: request.returnExplanation === true,
    ...(request.allowList ? { allow_list: request.allowList, allow_list_match: request.allowListMatch ?? 'exact' } : {}),
    ...(request.context ? { context: request.context } : {}),
    ...(request.adHocRecognizers ? { ad_hoc_recognizers: request.adHocRecognizers } : {}),
  });

/**
 * Presidio does not normalise: it is sent each normalised view of the text (normalize.ts) and its code-point
 * findings are mapped back to the original text, as the built-in engine does.
 */
const presidioInViews = async (url: string, request: ScanRequest): Promise<{ findings: Finding[]; changed: boolean }> => {
  const { views, changed } = scanViews(request.text);
  const toCodePoint = utf16ToCodePointMapper(request.text);
  const findings: Finding[] = [];
  for (const view of views) {
    const toUtf16 = codePointToUtf16Mapper(view.text);
    for (const f of await presidioFindings(url, { ...request, text: view.text })) {
      const [start, end] = view.toOriginal(toUtf16(f.start), toUtf16(f.end));
      findings.push({ ...f, start: toCodePoint(start), end: toCodePoint(end) });
    }
  }
  return { findings, changed };
};

const withoutExplanation = (finding: Finding): Finding => ({
  type: finding.type,
  start: finding.start,
  end: finding.end,
  score: finding.score,
});

/** Built-in findings, or Presidio's (merged with ours when configured) when a Presidio URL is set and it answers. */
const findEntities = async (
  app: App,
  { presidioUrl, presidioMerge }: Pick<Settings, 'presidioUrl' | 'presidioMerge'>,
  request: ScanRequest,
): Promise<Omit<ScanOutcome, 'action'>> => {
  const { text, signal, onProgress, projectId, source, action, language, ...options } = request;
  const control = {
    ...(signal ? { signal } : {}),
    ...(onProgress && text.length >= progressFromChars
      ? { onProgress: (done: number, total: number, recognizer: string) => onProgress(done, total, `scanned with ${recognizer}`) }
      : {}),
  };
  const builtIn = async (): Promise<ScanResult> => {
    try {
      return await scannerOf(app, () => defaultPiiEngine(app)).scan(text, { ...options, language }, control);
    } catch (error) {
      throw scanError(error);
    }
  };
  if (presidioUrl === '') return { result: await builtIn(), engine: 'builtin' };
  let remote: { findings: Finding[]; changed: boolean };
  try {
    remote = await presidioInViews(presidioUrl, request);
    markPresidio(app, true);
  } catch (error) {
    if (!(error instanceof PresidioUnavailableError)) throw scanError(error);
    markPresidio(app, false);
    app.log.warn({ reason: error.message }, 'presidio unavailable; scanning with the built-in engine');
    return { result: await builtIn(), engine: 'builtin' };
  }
  const found = presidioMerge ? removeDuplicates([...(await builtIn()).entities, ...remote.findings]) : remote.findings;
  const entities = found.map((f) => (request.returnExplanation ? f : withoutExplanation(f))).sort(compareFindings);
  return {
    result: { detected: entities.length > 0, entities, redacted_text: redact(request.text, entities), normalized: remote.changed },
    engine: presidioMerge ? 'merged' : 'presidio',
  };
};

/** Count and score range per entity type, in one pass over the findings. */
const summarise = (entities: readonly Finding[]) => {
  const counts: Record<string, number> = {};
  const sums: Record<string, { min: number; max: number; total: number }> = {};
  for (const f of entities) {
    counts[f.type] = (counts[f.type] ?? 0) + 1;
    const seen = sums[f.type];
    if (seen === undefined) sums[f.type] = { min: f.score, max: f.score, total: f.score };
    else {
      seen.min = Math.min(seen.min, f.score);
      seen.max = Math.max(seen.max, f.score);
      seen.total += f.score;
    }
  }
  const scores: Record<string, { min: number; max: number; mean: number }> = {};
  for (const [type, { min, max, total }] of Object.entries(sums)) {
    scores[type] = { min, max, mean: Math.min(1, Math.max(0, total / (counts[type] ?? 1))) };
  }
  return { counts, scores };
};

/**
 * Records the scan as a `pii_detections` evidence record and stores last_scan_at. The payload holds entity
 * types, counts, scores, text length, action, engine and language: never the text or a matched value.
 */
const recordScan = (app: App, request: ScanRequest, outcome: ScanOutcome): Promise<void> => {
  const { counts, scores } = summarise(outcome.result.entities);
  const at = app.now().toISOString();
  const recorded = appendDurably(
    app,
    {
      project_id: request.projectId,
      schema_key: 'pii_detections',
      timestamp: at,
      payload: {
        source: request.source,
        language: request.language,
        entity_counts: counts,
        total_findings: outcome.result.entities.length,
        scores,
        text_length: codePointCount(request.text),
        redacted: outcome.action === 'redact' && outcome.result.detected,
        labels: { action: outcome.action, engine: outcome.engine },
      },
    },
    at,
  );
  return recorded.catch((error: unknown) => {
    throw scanError(error);
  });
};

/**
 * The PII pipeline behind `pii.scan`, the chat filter and `svc scan`: validate, find entities (built-in engine,
 * or Presidio when configured, falling back when it is down), apply the action, record evidence.
 * `block` with findings throws AppError UNPROCESSABLE `PII_DETECTED` (after recording the evidence);
 * `flag` returns the findings with the text unchanged in `redacted_text`.
 */
export const scanText = async (app: App, request: ScanRequest): Promise<ScanOutcome> => {
  if (Buffer.byteLength(request.text, 'utf8') > maxTextBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', 'request_too_large');
  }
  const catalog = catalogFor(app);
  if (!catalog.languages().includes(request.language)) {
    throw new AppError(
      'VALIDATION',
      `unsupported language: ${request.language.slice(0, 20)} (supported: ${catalog.languages().join(', ')})`,
    );
  }
  const settings = app.settings.get();
  const action = request.action ?? settings.piiAction;
  const phoneRegions = request.phoneRegions ?? phoneRegionsOfSetting(settings.piiPhoneRegions);
  const found = await findEntities(app, settings, { ...request, phoneRegions });
  const result = action === 'flag' ? { ...found.result, redacted_text: request.text } : found.result;
  const outcome: ScanOutcome = { result, action, engine: found.engine };
  await recordScan(app, request, outcome);
  if (action === 'block' && result.detected) throw new AppError('UNPROCESSABLE', 'PII_DETECTED');
  return outcome;
};
