/** Spec 2.1: immutable; `ok` is true exactly when `error` is null. */
export type ChatCompletionResponse = {
  readonly text: string;
  readonly latency_ms: number;
  readonly error: string | null;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly ok: boolean;
};

export const chatResponse = (fields: {
  text?: string;
  latency_ms: number;
  error?: string | null;
  prompt_tokens?: number;
  completion_tokens?: number;
}): ChatCompletionResponse => {
  const error = fields.error ?? null;
  const prompt = fields.prompt_tokens ?? 0;
  const completion = fields.completion_tokens ?? 0;
  return Object.freeze({
    text: error === null ? (fields.text ?? '') : '',
    latency_ms: fields.latency_ms,
    error,
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    ok: error === null,
  });
};
