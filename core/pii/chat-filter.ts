import type { App } from '../app.ts';
import { scanText } from './scan-service.ts';

export type ChatFilterMode = 'off' | 'redact' | 'block';

/**
 * Passes the user messages of an outgoing chat request through the PII pipeline: `redact` replaces each
 * entity with `<TYPE>`, `block` throws AppError UNPROCESSABLE `PII_DETECTED` when any user message holds PII,
 * `off` returns the messages untouched. System and assistant messages are never changed. Each scanned message
 * is recorded as `pii_detections` evidence (source `chat.filter`).
 */
export const filterChatMessages = async <M extends { readonly role: string; readonly content: unknown }>(
  app: App,
  messages: readonly M[],
  mode: ChatFilterMode,
): Promise<M[]> => {
  if (mode === 'off') return [...messages];
  const filtered: M[] = [];
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content !== 'string' || message.content === '') {
      filtered.push(message);
      continue;
    }
    const outcome = await scanText(app, {
      text: message.content,
      language: 'en',
      projectId: 'default',
      source: 'chat.filter',
      action: mode,
    });
    filtered.push({ ...message, content: outcome.result.redacted_text });
  }
  return filtered;
};
