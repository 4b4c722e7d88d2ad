import { z } from 'zod';
import { AppError } from '../errors.ts';
import { defineOp } from '../ops/define.ts';
import { filterChatMessages } from '../pii/chat-filter.ts';
import { chatCompletion } from './client.ts';

const message = z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string().max(1_000_000) });

export const chatOps = {
  'chat.complete': defineOp({
    summary: 'Send one chat completion to the configured OpenAI-compatible provider (API key stays in the core)',
    input: z.object({
      messages: z.array(message).min(1).max(200),
      endpoint: z.string().url().optional(),
      model: z.string().min(1).max(200).optional(),
      extra_body: z.record(z.string(), z.unknown()).optional(),
      timeout: z.number().positive().max(600).optional(),
      max_retries: z.number().int().min(0).max(10).optional(),
      /** Overrides the PII filter setting for this call. */
      pii_filter: z.enum(['off', 'redact', 'block']).optional(),
    }),
    access: 'write',
    tier: 'api',
    handler: async (input, ctx) => {
      const settings = ctx.app.settings.get();
      const endpoint = input.endpoint ?? settings.chatEndpoint;
      const model = input.model ?? settings.chatModel;
      if (endpoint === '') throw new AppError('VALIDATION', 'No chat endpoint: set one in Settings or pass endpoint');
      if (model === '') throw new AppError('VALIDATION', 'No chat model: set one in Settings or pass model');
      const messages = await filterChatMessages(ctx.app, input.messages, input.pii_filter ?? settings.chatPiiFilter);
      return chatCompletion(endpoint, model, messages, {
        apiKey: ctx.app.settings.secret('chatApiKey') ?? null,
        env: {},
        ...(input.timeout === undefined ? {} : { timeout: input.timeout }),
        ...(input.max_retries === undefined ? {} : { maxRetries: input.max_retries }),
        ...(input.extra_body === undefined ? {} : { extraBody: input.extra_body }),
      });
    },
  }),
} as const;
