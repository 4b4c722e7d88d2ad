import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { chatResponse, type ChatCompletionResponse } from './response.ts';
import { NetworkError, postJson } from './transport.ts';

export type ChatMessage = { readonly role: string; readonly content: string };

export type ChatOptions = {
  /** Bearer token; falls back to PROVIDER_API_KEY. */
  readonly apiKey?: string | null;
  /** Per-attempt timeout in seconds (default 30). */
  readonly timeout?: number;
  /** Retries after the first request (default 3: up to 4 requests). */
  readonly maxRetries?: number;
  /** Extra top-level request fields (temperature, stream...), merged over model and messages. */
  readonly extraBody?: Readonly<Record<string, unknown>> | null;
  /** Injectable sleep (milliseconds) so tests can assert the delays without waiting. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Environment for the PROVIDER_API_KEY fallback (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
};

export const retryableStatuses: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/** Spec 4.1 rule 2: the delay before retry `attempt` (from 1) is min(2**attempt, 8) seconds. */
export const retryDelaySeconds = (attempt: number): number => Math.min(2 ** attempt, 8);

const replySchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({ content: z.string().nullable().optional() }).optional(),
        text: z.string().optional(),
      }),
    )
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().nonnegative().optional(), completion_tokens: z.number().int().nonnegative().optional() })
    .nullable()
    .optional(),
});

const snippet = (body: string): string => body.replace(/\s+/g, ' ').trim().slice(0, 200);

/**
 * Sends one chat-completion request to an OpenAI-compatible API (`POST {endpoint}/chat/completions`) with
 * retries, and returns the text, latency and token usage. Never throws for HTTP or network failures: they come
 * back in `error` (spec 4.1, 7).
 *
 * @example
 * const reply = await chatCompletion('http://127.0.0.1:11434/v1', 'llama3', [{ role: 'user', content: 'Hi' }]);
 * if (reply.ok) console.log(reply.text, reply.total_tokens);
 */
export const chatCompletion = async (
  endpoint: string,
  model: string,
  messages: readonly ChatMessage[],
  options: ChatOptions = {},
): Promise<ChatCompletionResponse> => {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const sleep = options.sleep ?? ((ms: number) => delay(ms));
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
  const timeoutMs = Math.max(1, (options.timeout ?? 30) * 1000);
  let url: URL;
  try {
    url = new URL(`${endpoint.replace(/\/+$/, '')}/chat/completions`);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('not http(s)');
  } catch {
    return chatResponse({ latency_ms: elapsed(), error: `Invalid endpoint URL: ${endpoint}` });
  }
  const apiKey = options.apiKey ?? (options.env ?? process.env).PROVIDER_API_KEY;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const body = JSON.stringify({ model, messages, ...(options.extraBody ?? {}) });

  let lastError = 'No attempt made';
  for (let attempt = 0; attempt <= maxRetries; attempt++) {
    if (attempt > 0) await sleep(retryDelaySeconds(attempt) * 1000);
    try {
      const reply = await postJson(url, headers, body, timeoutMs);
      if (reply.status >= 200 && reply.status < 300) {
        let parsed: z.infer<typeof replySchema>;
        try {
          parsed = replySchema.parse(JSON.parse(reply.body));
        } catch {
          return chatResponse({ latency_ms: elapsed(), error: `Malformed reply from provider: ${snippet(reply.body)}` });
        }
        const first = parsed.choices[0];
        return chatResponse({
          latency_ms: elapsed(),
          text: first?.message?.content ?? first?.text ?? '',
          prompt_tokens: parsed.usage?.prompt_tokens ?? 0,
          completion_tokens: parsed.usage?.completion_tokens ?? 0,
        });
      }
      lastError = `HTTP ${reply.status}: ${snippet(reply.body)}`;
      if (!retryableStatuses.has(reply.status)) return chatResponse({ latency_ms: elapsed(), error: lastError });
    } catch (error) {
      if (!(error instanceof NetworkError)) {
        return chatResponse({ latency_ms: elapsed(), error: `Request failed: ${(error as Error).message}` });
      }
      lastError = `Network error: ${error.message}`;
    }
  }
  return chatResponse({ latency_ms: elapsed(), error: `${lastError} (after ${maxRetries + 1} attempts)` });
};
