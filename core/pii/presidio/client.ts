import { z } from 'zod';
import type { AdHocRecognizer, Finding } from '../types.ts';

/** Presidio could not be reached or failed on its side: the caller falls back to the built-in engine. */
export class PresidioUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PresidioUnavailableError';
  }
}

/** The body of Presidio's `POST /analyze` (snake_case, as its Flask app reads it). */
export type PresidioAnalyzeRequest = {
  readonly text: string;
  readonly language: string;
  readonly entities?: readonly string[];
  readonly score_threshold?: number;
  readonly return_decision_process?: boolean;
  readonly allow_list?: readonly string[];
  readonly allow_list_match?: 'exact' | 'regex';
  readonly context?: readonly string[];
  readonly ad_hoc_recognizers?: readonly AdHocRecognizer[];
  readonly correlation_id?: string;
};

const explanationSchema = z
  .object({
    recognizer: z.string().optional(),
    pattern_name: z.string().nullish(),
    original_score: z.number().optional(),
    score: z.number().optional(),
    textual_explanation: z.string().nullish(),
    supportive_context_word: z.string().nullish(),
    validation_result: z.boolean().nullish(),
  })
  .nullish();

const resultSchema = z.array(
  z.object({
    entity_type: z.string().min(1).max(100),
    start: z.int().min(0),
    end: z.int().min(0),
    score: z.number().min(0).max(1),
    analysis_explanation: explanationSchema,
  }),
);

export type PresidioOptions = { readonly timeoutMs?: number };

const defaultTimeoutMs = 5_000;

const endpoint = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/+$/, '')}${path}`;

/** fetch with a deadline; network failures and timeouts become PresidioUnavailableError. */
const call = async (url: string, init: RequestInit, timeoutMs: number): Promise<Response> => {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    if (response.status >= 500) {
      await response.body?.cancel();
      throw new PresidioUnavailableError(`Presidio answered HTTP ${response.status}`);
    }
    return response;
  } catch (error) {
    if (error instanceof PresidioUnavailableError) throw error;
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
    throw new PresidioUnavailableError(`Presidio ${reason}`, { cause: error });
  }
};

const toFinding = (result: z.output<typeof resultSchema>[number]): Finding => {
  const e = result.analysis_explanation;
  const base = { type: result.entity_type, start: result.start, end: result.end, score: result.score };
  if (e === null || e === undefined) return base;
  return {
    ...base,
    explanation: {
      recognizer: `presidio:${e.recognizer ?? 'unknown'}`,
      originalScore: e.original_score ?? result.score,
      score: e.score ?? result.score,
      ...(e.pattern_name ? { pattern: e.pattern_name } : {}),
      ...(e.validation_result !== undefined ? { validationResult: e.validation_result } : {}),
      ...(e.supportive_context_word ? { contextWord: e.supportive_context_word } : {}),
      ...(e.textual_explanation ? { textualExplanation: e.textual_explanation } : {}),
    },
  };
};

/**
 * Calls a Presidio analyzer's `POST /analyze` and maps its results to findings (Presidio's offsets are Python
 * string indexes, i.e. code points, like ours). Throws PresidioUnavailableError when it is down, times out or
 * answers 5xx; a 4xx or a reply of the wrong shape is a PresidioUnavailableError too, since our request was
 * already validated and the built-in engine can still answer.
 */
export const presidioAnalyze = async (
  baseUrl: string,
  request: PresidioAnalyzeRequest,
  options: PresidioOptions = {},
): Promise<Finding[]> => {
  const response = await call(
    endpoint(baseUrl, '/analyze'),
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) },
    options.timeoutMs ?? defaultTimeoutMs,
  );
  if (!response.ok) {
    await response.body?.cancel();
    throw new PresidioUnavailableError(`Presidio rejected the request with HTTP ${response.status}`);
  }
  const parsed = resultSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new PresidioUnavailableError('Presidio answered with an unexpected shape');
  const length = [...request.text].length;
  return parsed.data.filter((r) => r.start < r.end && r.end <= length).map(toFinding);
};

/** `GET /health`: true when Presidio answers 200 within the deadline. */
export const presidioHealthy = async (baseUrl: string, options: PresidioOptions = {}): Promise<boolean> => {
  try {
    const response = await call(endpoint(baseUrl, '/health'), { method: 'GET' }, options.timeoutMs ?? 1_500);
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
};

/** `GET /supportedentities?language=xx`: the entity names Presidio serves (empty when it is down). */
export const presidioSupportedEntities = async (baseUrl: string, language: string, options: PresidioOptions = {}): Promise<string[]> => {
  try {
    const url = `${endpoint(baseUrl, '/supportedentities')}?language=${encodeURIComponent(language)}`;
    const response = await call(url, { method: 'GET' }, options.timeoutMs ?? 1_500);
    if (!response.ok) return [];
    const parsed = z
      .array(z.string().max(100))
      .max(1000)
      .safeParse(await response.json().catch(() => undefined));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
};
